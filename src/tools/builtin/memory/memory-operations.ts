// The operations of the `memory` tool and their parameter schemas; the store enforces the same bounds.
import type { ToolOperation } from '../../tool.js';
import { memoryLimits } from './memory-limits.js';

const key = {
  type: 'string',
  minLength: 1,
  maxLength: memoryLimits.maxKeyLength,
  pattern: memoryLimits.keyPattern,
  description: 'Key of up to 256 characters from A-Z a-z 0-9 . _ : / -',
} as const;

export const memoryOperations: readonly ToolOperation[] = [
  {
    name: 'get',
    description: 'Read the value stored under a key; `found` is false when there is none or it expired.',
    parameters: { type: 'object', additionalProperties: false, required: ['key'], properties: { key } },
  },
  {
    name: 'set',
    description: 'Store any JSON value (up to 64 KiB serialized) under a key, optionally expiring after ttlSeconds.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['key', 'value'],
      properties: {
        key,
        value: { description: 'Any JSON value.' },
        ttlSeconds: { type: 'integer', minimum: 1, maximum: memoryLimits.maxTtlSeconds },
      },
    },
  },
  {
    name: 'list',
    description: 'List your keys in sorted order, optionally only those starting with a prefix.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      properties: { prefix: { type: 'string', maxLength: memoryLimits.maxKeyLength } },
    },
  },
  {
    name: 'delete',
    description: 'Remove a key; `deleted` says whether it existed.',
    parameters: { type: 'object', additionalProperties: false, required: ['key'], properties: { key } },
  },
];
