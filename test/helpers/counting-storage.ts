// A storage that counts the operations sent through its port, by store and method (`records.get`,
// `journal.commit`, …): on PostgreSQL each is one statement, so a count per operation is the cost a
// test can hold the code to. Subscriptions (`journal.watch`, `signals.subscribe`) send nothing and are
// not counted; rate takes are counted apart (on PostgreSQL most send nothing: decision 2801).
// An instance also sends operations on timers of its own (the run heartbeat, the takeover scan, the
// schedule ticker, sweeps) whenever they come due, which on a loaded machine is often in the middle of
// what a test measures; `caused` tells what one piece of work sent apart from them (decision 3501).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Storage } from '../../src/platform/storage/index.js';

const STORES = ['records', 'journal', 'signals', 'rates', 'slots', 'spend', 'blobs'] as const;
const SILENT = new Set(['journal.watch', 'signals.subscribe']);

export interface CountingStorage {
  readonly storage: Storage;
  /** Operations since the last reset, in order, whatever sent them. */
  readonly calls: string[];
  reset(): void;
  /**
   * Runs `work`; `calls` then lists, in order and as they happen, the operations it sent and those
   * sent by the asynchronous work it started, whenever that runs (a run's execution, its commits) —
   * never those of timers started before it (async context, not time, decides).
   */
  caused<T>(work: () => Promise<T>): Promise<{ readonly value: T; readonly calls: readonly string[] }>;
}

export function countingStorage(inner: Storage): CountingStorage {
  const calls: string[] = [];
  const cause = new AsyncLocalStorage<string[]>();
  const wrapped: Record<string, unknown> = {};
  for (const name of STORES) {
    const store = inner[name] as unknown as Record<string, unknown>;
    wrapped[name] = new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const operation = `${name}.${String(property)}`;
        return (...args: unknown[]) => {
          if (!SILENT.has(operation)) {
            calls.push(operation);
            cause.getStore()?.push(operation);
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
  const storage = new Proxy(inner, { get: (target, property, receiver): unknown => (property in wrapped ? wrapped[property as string] : (Reflect.get(target, property, receiver) as unknown)) });
  const caused = async <T>(work: () => Promise<T>): Promise<{ readonly value: T; readonly calls: readonly string[] }> => {
    const own: string[] = [];
    // Awaited inside the context: a thenable that starts its work when awaited (app.inject) starts it there.
    const value = await cause.run(own, async () => await work());
    return { value, calls: own };
  };
  return { storage, calls, reset: () => void calls.splice(0), caused };
}
