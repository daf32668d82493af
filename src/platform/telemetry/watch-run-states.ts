// Hears the final states runs are written in, without reading anything back: a decorator over the
// storage port (applied once, at the composition root, to the storage every feature gets) that
// notes a successful write — `records.update`, `records.put` or a `journal.commit` with a record
// patch — of a final state to a record someone asked to watch. Run telemetry watches each execution's
// key while it runs, so a run's outcome costs nothing: reading the record back after every run
// would load its whole data again (megabytes for a run with large inputs) just to learn its state.
// Every other call passes straight through to the storage.
import type { RecordKey, RecordPatch, Storage, UpdateGuard, JournalChange, NewRecord } from '../storage/index.js';

const FINAL_STATES = new Set(['Succeeded', 'Failed', 'Cancelled']);

const keyOf = (key: RecordKey): string => `${key.collection}\u0000${key.ownerId}\u0000${key.id}`;

export interface RunStateWatch {
  /** The storage features use: the same storage, with final-state writes heard. */
  readonly storage: Storage;
  /** Starts noting final states written to `key`. */
  watch(key: RecordKey): void;
  /** The final state written since `watch` (undefined when none), and stops watching. */
  take(key: RecordKey): string | undefined;
}

/**
 * `target`'s members, `overrides` first; methods stay bound to `target` (its private fields keep
 * working), each function bound once (a replaced method is bound anew): every storage call of every
 * request reads a method through here.
 */
function intercept<T extends object>(target: T, overrides: Partial<T>): T {
  const bound = new WeakMap<object, unknown>();
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      let method = bound.get(value);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(object);
        bound.set(value, method);
      }
      return method;
    },
  });
}

export function watchRunStates(storage: Storage): RunStateWatch {
  const watched = new Map<string, string | undefined>();
  const note = (key: RecordKey, state: string | null | undefined): void => {
    if (state === undefined || state === null || !FINAL_STATES.has(state)) return;
    const id = keyOf(key);
    if (watched.has(id)) watched.set(id, state);
  };
  const { records, journal } = storage;
  const watchedRecords = intercept(records, {
    update: async <T>(key: RecordKey, patch: RecordPatch<T>, guard?: UpdateGuard) => {
      const updated = await records.update<T>(key, patch, guard);
      if (updated !== undefined) note(key, patch.state);
      return updated;
    },
    put: async <T>(record: NewRecord<T>) => {
      const stored = await records.put<T>(record);
      note(record, record.state);
      return stored;
    },
  });
  const watchedJournal = intercept(journal, {
    commit: <T, R>(run: RecordKey, change: JournalChange<T, R>) => {
      const state = change.record?.patch.state;
      // A commit that writes no final state (every workflow step's checkpoint) passes straight through.
      if (state === undefined || state === null || !FINAL_STATES.has(state)) return journal.commit<T, R>(run, change);
      return journal.commit<T, R>(run, change).then((result) => {
        if (result.committed) note(run, state);
        return result;
      });
    },
  });
  return {
    storage: intercept(storage, { records: watchedRecords, journal: watchedJournal }),
    watch: (key) => void watched.set(keyOf(key), undefined),
    take: (key) => {
      const id = keyOf(key);
      const state = watched.get(id);
      watched.delete(id);
      return state;
    },
  };
}
