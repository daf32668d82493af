// The storage port's owned records: every resource the service keeps (handles, runs, definitions,
// approvals, conversations, memory entries) is a record under (collection, owner, id). Ownership is in
// the key, so a lookup by another caller is the same miss as an id that never existed (SPEC.md rule 2,
// by construction); so is a key no provider can keep (U+0000, an unpaired surrogate, over 512 bytes:
// storable-key.ts), on every provider. Records are plain JSON data; live objects never go in. Expiry is
// judged on the injected clock: a record is absent from its `expiresAt` instant on. Runs carry a lease:
// the instance executing a run holds it and renews it; a lapsed lease is how another instance knows to
// take over.

import type { RunItem } from './run-journal.js';

/** Epoch milliseconds. */
export type EpochMs = number;

export interface RecordKey {
  readonly collection: string;
  readonly ownerId: string;
  readonly id: string;
}

export interface StoredRecord<T = unknown> extends RecordKey {
  /** A secondary key lists are filtered by (a run's handle or workflow id, an approval's job id). */
  readonly scope: string | null;
  /** A short state lists and caps are filtered by (a run's status, an approval's state). */
  readonly state: string | null;
  readonly createdAt: EpochMs;
  /** Null: kept until deleted. */
  readonly expiresAt: EpochMs | null;
  /** 1 on insert, +1 on every change: compare-and-set by version. */
  readonly version: number;
  /** The instance executing this record (runs only), while its lease lasts. */
  readonly leaseHolder: string | null;
  readonly leaseExpiresAt: EpochMs | null;
  /** JSON data. The memory provider deep-freezes it: treat it as immutable. */
  readonly data: T;
}

export interface NewRecord<T = unknown> extends RecordKey {
  readonly scope?: string | null;
  readonly state?: string | null;
  readonly createdAt: EpochMs;
  readonly expiresAt?: EpochMs | null;
  /** Taken with the insert, so a run is never unleased between creation and dispatch. */
  readonly lease?: { readonly holder: string; readonly expiresAt: EpochMs } | null;
  readonly data: T;
}

/**
 * Records written in the same transaction as another write, and only when that write happens (an
 * outbox: what must follow from a state change is stored with the change, so nothing is lost when the
 * process dies right after it). Each entry is inserted when no live record has its key (an expired
 * one is replaced); an entry whose key is live is left as it is.
 */
export type OutboxEntry<T = unknown> = NewRecord<T>;

/** Admission rules checked atomically with an insert. */
export interface InsertRules {
  /** At most `max` live records of the owner in this collection whose state is one of `states`. */
  readonly ownerCap?: { readonly max: number; readonly states: readonly string[] };
  /** No other live record of the owner with the same scope and one of `states` (one live run per workflow). */
  readonly exclusiveScope?: { readonly states: readonly string[] };
}

export type InsertResult<T> =
  | { readonly outcome: 'inserted'; readonly record: StoredRecord<T> }
  | { readonly outcome: 'exists'; readonly record: StoredRecord<T> }
  | { readonly outcome: 'owner-cap' }
  | { readonly outcome: 'scope-busy' };

export interface RecordPatch<T> {
  readonly state?: string | null;
  readonly scope?: string | null;
  readonly expiresAt?: EpochMs | null;
  readonly data?: T;
  /** Sets or clears (null) the lease. */
  readonly lease?: { readonly holder: string; readonly expiresAt: EpochMs } | null;
}

/** Conditions an update must meet, or nothing changes. */
export interface UpdateGuard {
  readonly version?: number;
  readonly states?: readonly string[];
  /**
   * The lease must still be this holder's: nobody claimed it since (a lapsed lease nobody took over is
   * still held — the holder identity is the fencing token, the expiry only says when others may claim).
   */
  readonly leaseHolder?: string;
}

export interface ListQuery {
  readonly scope?: string;
  readonly states?: readonly string[];
  /** 1..200. */
  readonly limit: number;
  /** From a previous page's `nextCursor`; an unreadable cursor is the caller's 400. */
  readonly cursor?: string | null;
}

export interface ListPage<T> {
  /** Newest first (createdAt, then id, descending). */
  readonly records: StoredRecord<T>[];
  /** Null when the page was not full. */
  readonly nextCursor: string | null;
}

export interface ClaimQuery {
  readonly states: readonly string[];
  /** Claim only a record whose lease lapsed (takeover); otherwise also an unleased one. */
  readonly lapsedOnly?: boolean;
}

export interface RecordStore {
  get<T>(key: RecordKey): Promise<StoredRecord<T> | undefined>;
  /**
   * Slides a live record's expiry to now + ttlMs and returns it. With `slackMs`, an expiry already at
   * or past now + ttlMs − slackMs is left as it is (nothing written: of several instances refreshing
   * one record, one writes per slack interval), and the live record is returned as stored.
   */
  touch<T>(key: RecordKey, ttlMs: number, slackMs?: number): Promise<StoredRecord<T> | undefined>;
  /**
   * Inserts unless a live record has the key ('exists' returns it) or a rule refuses; the outbox, and
   * `items` (the record's first journal items), are written only with an insert, atomically with it.
   */
  insert<T>(record: NewRecord<T>, rules?: InsertRules, outbox?: readonly OutboxEntry[], items?: readonly RunItem[]): Promise<InsertResult<T>>;
  /** Inserts or replaces unconditionally (version restarts at 1 when there was no live record). */
  put<T>(record: NewRecord<T>): Promise<StoredRecord<T>>;
  /** Applies the patch when the live record meets the guard (with the outbox); undefined when missing or refused. */
  update<T>(key: RecordKey, patch: RecordPatch<T>, guard?: UpdateGuard, outbox?: readonly OutboxEntry[]): Promise<StoredRecord<T> | undefined>;
  /** True when a live record was removed (with its items and events). */
  delete(key: RecordKey): Promise<boolean>;
  list<T>(collection: string, ownerId: string, query: ListQuery): Promise<ListPage<T>>;
  count(collection: string, ownerId: string, states?: readonly string[]): Promise<number>;
  /** Removes expired records of the collection (with their items and events) and returns them. */
  sweep<T>(collection: string, limit?: number): Promise<StoredRecord<T>[]>;

  /** Leases (runs): take the lease of a record in one of `states`, atomically; undefined when someone else holds it. */
  claim<T>(key: RecordKey, holder: string, ttlMs: number, query: ClaimQuery): Promise<StoredRecord<T> | undefined>;
  /**
   * Records of these collections in one of `states` whose lease lapsed (oldest first); claim each before
   * acting. With `perOwner`, at most that many of each owner's oldest: one owner's backlog cannot hide
   * another's records from a scan (webhook deliveries are shared out fairly from it).
   */
  lapsed<T>(collections: readonly string[], states: readonly string[], limit: number, perOwner?: number): Promise<StoredRecord<T>[]>;
  /**
   * Extends every lease the holder has not lost (lapsed but unclaimed counts as kept) and returns those
   * records' keys. A renewal is not a new version: writes guarded by a version read before it still hold.
   */
  renewLeases(holder: string, ttlMs: number): Promise<RecordKey[]>;
  /** Lets every lease of the holder lapse now (graceful shutdown: another instance may take over at once); returns how many. */
  releaseLeases(holder: string): Promise<number>;
}
