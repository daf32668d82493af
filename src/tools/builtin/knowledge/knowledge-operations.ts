// The operations of the `knowledge` tool and their parameter schemas.
import type { ToolOperation } from '../../tool.js';
import { maxQueryLength, maxTopK } from './create-knowledge-indexes.js';

const index = { type: 'string', minLength: 1, maxLength: 128, description: 'Name of a configured index.' } as const;

export const knowledgeOperations: readonly ToolOperation[] = [
  {
    name: 'search',
    description: 'Full-text (BM25) search of an index; returns the best documents with a snippet each.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'query'],
      properties: {
        index,
        query: { type: 'string', minLength: 1, maxLength: maxQueryLength },
        topK: { type: 'integer', minimum: 1, maximum: maxTopK, description: 'How many hits; default 5.' },
      },
    },
  },
  {
    name: 'get',
    description: 'The full text of one document, by the id a search returned.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'id'],
      properties: { index, id: { type: 'string', minLength: 1, maxLength: 1024 } },
    },
  },
];
