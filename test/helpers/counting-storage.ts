// A storage that counts the operations sent through its port, by store and method (`records.get`,
// `journal.commit`, …): on PostgreSQL each is one statement, so a count per operation is the cost a
// test can hold the code to. Subscriptions (`journal.watch`, `signals.subscribe`) send nothing and are
// not counted; rate takes are counted apart (on PostgreSQL most send nothing: decision 2801).
import type { Storage } from '../../src/platform/storage/index.js';

const STORES = ['records', 'journal', 'signals', 'rates', 'slots', 'spend', 'blobs'] as const;
const SILENT = new Set(['journal.watch', 'signals.subscribe']);

export interface CountingStorage {
  readonly storage: Storage;
  /** Operations since the last reset, in order. */
  readonly calls: string[];
  reset(): void;
}

export function countingStorage(inner: Storage): CountingStorage {
  const calls: string[] = [];
  const wrapped: Record<string, unknown> = {};
  for (const name of STORES) {
    const store = inner[name] as unknown as Record<string, unknown>;
    wrapped[name] = new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const operation = `${name}.${String(property)}`;
        return (...args: unknown[]) => {
          if (!SILENT.has(operation)) calls.push(operation);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
  const storage = new Proxy(inner, { get: (target, property, receiver): unknown => (property in wrapped ? wrapped[property as string] : (Reflect.get(target, property, receiver) as unknown)) });
  return { storage, calls, reset: () => void calls.splice(0) };
}
