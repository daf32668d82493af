// RunJournal for one process: items and events live beside their run record in the memory table, a
// commit is applied in one synchronous step, and watchers are told on the next microtask (as a
// notification from another instance would arrive: after the commit, never inside it).
import type { CommitResult, JournalChange, JournalEvent, JournalListener, RunItem, RunJournal } from '../run-journal.js';
import type { RecordKey, StoredRecord } from '../records.js';
import { deepFreezeJson } from '../deep-freeze-json.js';
import { settle } from './memory-record-store.js';
import type { MemoryTable } from './memory-table.js';

function runKeyOf(run: RecordKey): string {
  return `${run.collection}\u0000${run.ownerId}\u0000${run.id}`;
}

export class MemoryRunJournal implements RunJournal {
  readonly #table: MemoryTable;
  readonly #watchers = new Map<string, Set<JournalListener>>();

  constructor(table: MemoryTable) {
    this.#table = table;
  }

  commit<T, R>(run: RecordKey, change: JournalChange<T, R>): Promise<CommitResult<R>> {
    return settle((): CommitResult<R> => {
      const row = this.#table.liveRow(run);
      if (row === undefined) return { committed: false };
      if (change.record !== undefined && !this.#table.passes(row.record, change.record.guard)) return { committed: false };
      const record = change.record === undefined ? undefined : (this.#table.apply(row, change.record.patch) as StoredRecord<R>);
      for (const item of change.items ?? []) row.items.set(item.key, deepFreezeJson(item.data));
      const seqs: number[] = [];
      for (const event of change.events ?? []) {
        const seq = row.events.length + 1;
        row.events.push(Object.freeze({ seq, event: deepFreezeJson(event) }));
        seqs.push(seq);
      }
      this.#table.writeOutbox(change.outbox);
      for (const key of change.expire?.keys ?? []) {
        const other = this.#table.liveRow(key);
        if (other !== undefined) this.#table.apply(other, { expiresAt: change.expire!.at });
      }
      if (seqs.length > 0) this.#notify(run, seqs.at(-1) as number);
      return { committed: true, seqs, record };
    });
  }

  items<T>(run: RecordKey): Promise<RunItem<T>[]> {
    return settle(() => [...(this.#table.liveRow(run)?.items ?? [])].map(([key, data]) => ({ key, data: data as T })));
  }

  events<E>(run: RecordKey, after: number, limit: number): Promise<JournalEvent<E>[]> {
    return settle(() => (this.#table.liveRow(run)?.events ?? []).slice(Math.max(0, after), Math.max(0, after) + limit) as JournalEvent<E>[]);
  }

  lastSeq(run: RecordKey): Promise<number> {
    return settle(() => this.#table.liveRow(run)?.events.length ?? 0);
  }

  watch(run: RecordKey, listener: JournalListener): () => void {
    const key = runKeyOf(run);
    let listeners = this.#watchers.get(key);
    if (listeners === undefined) this.#watchers.set(key, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#watchers.get(key) === listeners) this.#watchers.delete(key);
    };
  }

  #notify(run: RecordKey, lastSeq: number): void {
    const listeners = this.#watchers.get(runKeyOf(run));
    if (listeners === undefined) return;
    for (const listener of [...listeners]) queueMicrotask(() => listener(lastSeq));
  }
}
