// The storage port's run journal: what happens inside a run is committed as one atomic change of the
// run's items (per-step state, per-case results), its numbered events (what streams and Last-Event-ID
// read) and, optionally, the run record itself (compare-and-set). One commit is one checkpoint: after a
// crash another instance reads back exactly what was committed, and watchers on any instance are woken
// with the new sequence numbers.
import type { EpochMs, OutboxEntry, RecordKey, RecordPatch, StoredRecord, UpdateGuard } from './records.js';

export interface RunItem<T = unknown> {
  readonly key: string;
  readonly data: T;
}

export interface JournalEvent<E = unknown> {
  /** 1-based, gap-free per run. */
  readonly seq: number;
  readonly event: E;
}

export interface JournalChange<T = unknown, R = unknown> {
  /** Upserted by key. */
  readonly items?: readonly RunItem<T>[];
  /** Appended in order; each gets the next sequence number. */
  readonly events?: readonly unknown[];
  /** Applied to the run record under the guard; when the guard refuses, nothing of the change is written. */
  readonly record?: { readonly patch: RecordPatch<R>; readonly guard?: UpdateGuard };
  /** Records written with the commit (records.ts OutboxEntry): the events this change causes. */
  readonly outbox?: readonly OutboxEntry[];
  /**
   * Other live records of the same owner whose expiry the commit sets to `at` (records that end with
   * the run, such as its plan); a missing one is skipped. Only with a commit that is written.
   */
  readonly expire?: { readonly keys: readonly RecordKey[]; readonly at: EpochMs };
}

export type CommitResult<R = unknown> =
  | { readonly committed: true; readonly seqs: readonly number[]; readonly record: StoredRecord<R> | undefined }
  | { readonly committed: false };

/** A listener hears the run's newest sequence number after each commit that appended events. */
export type JournalListener = (lastSeq: number) => void;

export interface CommitOptions {
  /**
   * The caller retries the commit on an outage until it is written (a run's own checkpoints): it waits
   * for the database as long as it takes instead of giving up at the provider's statement bound
   * (decision 3511). A commit that gave up may still be applied once the database answers again, and a
   * retry would then append its events a second time.
   */
  readonly waitOut?: boolean;
}

export interface RunJournal {
  /** Atomic; refused (committed: false) when the run record is missing or its guard refuses. */
  commit<T, R>(run: RecordKey, change: JournalChange<T, R>, options?: CommitOptions): Promise<CommitResult<R>>;
  items<T>(run: RecordKey): Promise<RunItem<T>[]>;
  /** Events with seq > after, oldest first, at most `limit`. */
  events<E>(run: RecordKey, after: number, limit: number): Promise<JournalEvent<E>[]>;
  /** The run's newest sequence number (0 when none). */
  lastSeq(run: RecordKey): Promise<number>;
  /** Hears commits to this run from every instance sharing the storage; returns the unsubscribe. */
  watch(run: RecordKey, listener: JournalListener): () => void;
}

export type { EpochMs };
