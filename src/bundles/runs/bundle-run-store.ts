// Bundle runs in the storage port: owned by the starting caller and scoped to their handle, so a run
// read by another caller or under another handle is the same miss as one that never existed. Live runs
// carry a lease (the executing instance's, or the stream reservation's until a stream claims it); a
// terminal run drops its lease and stays pollable for RunRecordTtl, even after its handle is gone. Its
// frames are the run's journal events (written by the run engine's live run).
import { LRUCache } from 'lru-cache';
import type { Owner } from '../../platform/ownership/index.js';
import type { InsertResult, RecordKey, Storage, StoredRecord } from '../../platform/storage/index.js';
import { isTerminal, type BundleRunRecord, type QueuedRun } from './run-record.js';

export const RUN_COLLECTION = 'bundle-run';
/** Parked: the run waits for a person's decision; it executes nowhere and holds no lease (DESIGN.md §13). */
export const PARKED = 'Parked';
export const LIVE_STATES: readonly string[] = ['Queued', 'Running', PARKED];
/** The lease holder of a run reserved for a stream until a stream claims it. */
export const STREAM_RESERVATION = 'stream-reservation';

export function bundleRunKey(run: Pick<BundleRunRecord, 'ownerId' | 'jobId'>): RecordKey {
  return { collection: RUN_COLLECTION, ownerId: run.ownerId, id: run.jobId };
}

/** Finished runs kept in this process (a storage read may be a round trip; a finished run never changes). */
const FINISHED_CACHE_ENTRIES = 10_000;

export class BundleRunStore {
  readonly #storage: Storage;
  readonly #clock: { now(): number };
  /** owner + job id → a finished run and when its record expires. */
  readonly #finished = new LRUCache<string, { readonly run: BundleRunRecord; readonly expiresAt: number }>({ max: FINISHED_CACHE_ENTRIES });

  constructor(options: { readonly storage: Storage; readonly clock: { now(): number } }) {
    this.#storage = options.storage;
    this.#clock = options.clock;
  }

  /** Where the runs' frames are. */
  get journal(): Storage['journal'] {
    return this.#storage.journal;
  }

  async find(owner: Owner, handle: string, jobId: string): Promise<BundleRunRecord | undefined> {
    const cacheKey = `${owner.ownerId}\u0000${jobId}`;
    const cached = this.#cached(cacheKey);
    if (cached !== undefined) return cached.handle === handle ? cached : undefined;
    const record = await this.#storage.records.get<BundleRunRecord>({ collection: RUN_COLLECTION, ownerId: owner.ownerId, id: jobId });
    if (record === undefined || record.scope !== handle) return undefined;
    if (isTerminal(record.data) && record.expiresAt !== null) this.#finished.set(cacheKey, { run: record.data, expiresAt: record.expiresAt });
    return record.data;
  }

  /** A finished run this instance keeps (unexpired), without a storage read; undefined when it keeps none. */
  finishedNow(owner: Owner, jobId: string): BundleRunRecord | undefined {
    return this.#cached(`${owner.ownerId}\u0000${jobId}`);
  }

  #cached(cacheKey: string): BundleRunRecord | undefined {
    const cached = this.#finished.get(cacheKey);
    return cached !== undefined && cached.expiresAt > this.#clock.now() ? cached.run : undefined;
  }

  /** The live run with its lease, for a claim or a takeover. */
  async stored(key: RecordKey): Promise<StoredRecord<BundleRunRecord> | undefined> {
    return this.#storage.records.get<BundleRunRecord>(key);
  }

  /** The caller's runs under one handle, newest first. */
  async list(owner: Owner, handle: string, page: { readonly limit: number; readonly cursor: string | null }): Promise<{ runs: BundleRunRecord[]; nextCursor: string | null }> {
    const found = await this.#storage.records.list<BundleRunRecord>(RUN_COLLECTION, owner.ownerId, { ...page, scope: handle });
    return { runs: found.records.map((record) => record.data), nextCursor: found.nextCursor };
  }

  /** The owner's runs still Queued (to reclaim expired stream reservations before counting). */
  async queued(owner: Owner): Promise<QueuedRun[]> {
    const found = await this.#storage.records.list<BundleRunRecord>(RUN_COLLECTION, owner.ownerId, { states: ['Queued'], limit: 200 });
    return found.records.map((record) => record.data as QueuedRun);
  }

  /** Stores a new Queued run if the owner is under the cap; `lease` is the dispatching instance's or the reservation's. */
  admit(run: QueuedRun, maxActivePerOwner: number, lease: { readonly holder: string; readonly expiresAt: number }): Promise<InsertResult<BundleRunRecord>> {
    return this.#storage.records.insert<BundleRunRecord>(
      { ...bundleRunKey(run), scope: run.handle, state: 'Queued', createdAt: run.createdAt, lease, data: run },
      { ownerCap: { max: maxActivePerOwner, states: LIVE_STATES } },
    );
  }

  /** Removes a run that was refused after admission (its conversation belongs to someone else). */
  async discard(run: QueuedRun): Promise<void> {
    await this.#storage.records.delete(bundleRunKey(run));
  }

  /** Drops expired terminal runs. */
  async sweep(): Promise<number> {
    return (await this.#storage.records.sweep(RUN_COLLECTION)).length;
  }
}
