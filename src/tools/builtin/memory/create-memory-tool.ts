// The `memory` built-in tool: a small per-owner key-value scratchpad keyed by the caller's owner id,
// bounded per owner (Tools:Memory:MaxBytesPerOwner) and in owners held (Tools:Memory:MaxOwners), kept in
// the storage port (on PostgreSQL it survives restarts and is shared by every instance). One owner never
// reads, lists or deletes another's keys.
import type { Clock } from '../../../platform/clock/index.js';
import type { Storage } from '../../../platform/storage/index.js';
import { toolFailure, toolSuccess, type Tool, type ToolResult } from '../../tool.js';
import { memoryLimits } from './memory-limits.js';
import { memoryDescriptor } from './memory-descriptor.js';
import { isValidMemoryKey, MemoryStore, type MemoryBounds } from './memory-store.js';

export interface MemoryToolOptions extends MemoryBounds {
  readonly clock: Clock;
  readonly storage: Storage;
}

const badKey = `The key must be 1 to ${memoryLimits.maxKeyLength} characters from A-Z a-z 0-9 . _ : / -.`;

function isTtl(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= memoryLimits.maxTtlSeconds;
}

export function createMemoryTool(options: MemoryToolOptions): { readonly tool: Tool; readonly store: MemoryStore } {
  const store = new MemoryStore(options.storage, options.clock, options);
  const iso = (at: number | undefined): string | null => (at === undefined ? null : new Date(at).toISOString());

  async function invoke(operation: string, parameters: Readonly<Record<string, unknown>>, ownerId: string): Promise<ToolResult> {
    if (operation === 'list') {
      const prefix = parameters['prefix'] ?? '';
      if (typeof prefix !== 'string') return toolFailure('The prefix must be a string.');
      return toolSuccess({ keys: await store.list(ownerId, prefix) });
    }
    const key = parameters['key'];
    if (typeof key !== 'string' || !isValidMemoryKey(key)) return toolFailure(badKey);
    switch (operation) {
      case 'get': {
        const found = await store.get(ownerId, key);
        if (found === undefined) return toolSuccess({ key, found: false, value: null, expiresAt: null });
        return toolSuccess({ key, found: true, value: found.value, expiresAt: iso(found.expiresAt) });
      }
      case 'set': {
        const ttl = parameters['ttlSeconds'];
        if (ttl !== undefined && !isTtl(ttl)) {
          return toolFailure(`ttlSeconds must be a whole number from 1 to ${memoryLimits.maxTtlSeconds}.`);
        }
        if (!('value' in parameters)) return toolFailure('A value is required.');
        const stored = await store.set(ownerId, key, parameters['value'], ttl);
        return stored.ok ? toolSuccess({ key, stored: true, expiresAt: iso(stored.expiresAt) }) : toolFailure(stored.error);
      }
      case 'delete':
        return toolSuccess({ key, deleted: await store.delete(ownerId, key) });
      default:
        return toolFailure(`Unknown operation "${operation}"; memory accepts get, set, list, delete.`);
    }
  }

  const tool: Tool = {
    descriptor: memoryDescriptor,
    invoke: (operation, parameters, context) => invoke(operation, parameters, context.ownerId),
    close: () => Promise.resolve(),
  };
  return { tool, store };
}
