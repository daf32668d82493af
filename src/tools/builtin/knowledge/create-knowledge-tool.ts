// The `knowledge` built-in tool: search and read the host's configured document indexes.
// Read-only over indexes built at start-up; it never touches the file system itself.
import { toolFailure, toolSuccess, type Tool, type ToolResult } from '../../tool.js';
import type { KnowledgeIndexes } from './create-knowledge-indexes.js';
import { knowledgeDescriptor } from './knowledge-descriptor.js';

export function createKnowledgeTool(indexes: KnowledgeIndexes): Tool {
  const unknownIndex = (index: string): ToolResult =>
    toolFailure(`Unknown index "${index}"; known indexes: ${indexes.names.join(', ') || '(none)'}.`);

  function invoke(operation: string, parameters: Readonly<Record<string, unknown>>): ToolResult {
    const index = parameters['index'];
    if (typeof index !== 'string') return toolFailure('The index must be a string.');
    switch (operation) {
      case 'search': {
        const { query, topK } = parameters;
        if (typeof query !== 'string') return toolFailure('The query must be a string.');
        if (topK !== undefined && typeof topK !== 'number') return toolFailure('topK must be a number.');
        const hits = indexes.search(index, query, topK);
        if (hits === undefined) return unknownIndex(index);
        return toolSuccess(hits.map(({ id, title, score, snippet }) => ({ id, title, score, snippet })));
      }
      case 'get': {
        const id = parameters['id'];
        if (typeof id !== 'string') return toolFailure('The id must be a string.');
        if (!indexes.has(index)) return unknownIndex(index);
        const document = indexes.get(index, id);
        if (document === undefined) return toolFailure(`Unknown document "${id}" in index "${index}".`);
        return toolSuccess({ id: document.id, title: document.title, text: document.text });
      }
      default:
        return toolFailure(`Unknown operation "${operation}"; knowledge accepts search, get.`);
    }
  }

  return {
    descriptor: knowledgeDescriptor,
    invoke: (operation, parameters) => Promise.resolve(invoke(operation, parameters)),
    invokeNow: invoke,
  };
}
