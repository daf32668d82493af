// The json tool's catalog descriptor: flags per DESIGN §4 and one parameters schema per operation. Sizes
// of the any-typed `data` and `schema` are checked by the operations, since JSON Schema cannot bound them.
import type { ToolDescriptor } from '../../tool.js';
import { MAX_EXPRESSION_LENGTH, MAX_VALIDATION_ERRORS } from './json-limits.js';

const data = { description: 'Any JSON value (at most 1 MiB serialized).' } as const;

export const jsonDescriptor: ToolDescriptor = {
  name: 'json',
  description: 'Queries JSON with JMESPath and validates JSON against JSON Schema (draft 2020-12).',
  operations: [
    {
      name: 'query',
      description: 'Evaluates a JMESPath expression (the JMESPath Community dialect: also arithmetic, let, items()) against data; returns { result } (null when nothing matches).',
      parameters: {
        type: 'object',
        properties: {
          data,
          expression: {
            type: 'string',
            minLength: 1,
            maxLength: MAX_EXPRESSION_LENGTH,
            description: 'JMESPath expression, e.g. "people[?age > `30`].name | sort(@)".',
          },
        },
        required: ['data', 'expression'],
        additionalProperties: false,
      },
    },
    {
      name: 'validate',
      description:
        'Validates data against a draft 2020-12 JSON Schema; returns { valid, errors: [{ path, message }] } with ' +
        `all errors up to ${MAX_VALIDATION_ERRORS}. path is a JSON Pointer into data ("" is the root). Remote $ref ` +
        'is not fetched.',
      parameters: {
        type: 'object',
        properties: {
          data,
          schema: {
            anyOf: [{ type: 'object' }, { type: 'boolean' }],
            description: 'JSON Schema, draft 2020-12 (at most 256 KiB serialized).',
          },
        },
        required: ['data', 'schema'],
        additionalProperties: false,
      },
    },
  ],
  riskTier: 'Trivial',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
