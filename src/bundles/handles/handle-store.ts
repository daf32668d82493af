// Bundle handles in the storage port: owned (foreign ≡ unknown by construction), with a sliding
// HandleTtl that every request naming the handle refreshes. The uploaded archive is kept in the
// storage's blobs for the other instances sharing it (a storage nobody shares keeps none), so any
// instance can stage it and run it. Each instance keeps its own staged copies (StagingLeases): a run
// leases one so it is not removed under it; a handle that is deleted or expires retires this
// instance's copy, and each sweep retires copies whose handle is gone elsewhere.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../platform/clock/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import type { ListPage, Storage, StoredRecord } from '../../platform/storage/index.js';
import type { BundleManifest } from '../../agent/index.js';
import type { BundleHandle } from './bundle-handle.js';
import type { BundleStager } from './bundle-stager.js';
import type { StagingLease, StagingLeases } from './staging-leases.js';

export const HANDLE_COLLECTION = 'bundle-handle';

interface HandleData {
  readonly manifest: BundleManifest;
  readonly systemPrompt: string;
}

export interface NewHandle {
  readonly handle: string;
  readonly ownerId: string;
  readonly manifest: BundleManifest;
  readonly systemPrompt: string;
  readonly createdAt: number;
  /** Where this instance staged it. */
  readonly dir: string;
}

export interface HandleStoreOptions {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly handleTtlMs: number;
  readonly staging: StagingLeases;
  /** Stages a stored archive on this instance (a handle registered through another one). */
  readonly stager: Pick<BundleStager, 'restage'>;
}

function toHandle(record: StoredRecord<HandleData>): BundleHandle {
  return {
    handle: record.id,
    ownerId: record.ownerId,
    manifest: record.data.manifest,
    systemPrompt: record.data.systemPrompt,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt ?? Number.MAX_SAFE_INTEGER,
  };
}

/**
 * How far a poll's slide of a handle's TTL may lag (see `slide`): 1 % of the TTL, at least a second
 * and at most a minute — 18 s of the default 30 minutes.
 */
export function slideGranularityMs(handleTtlMs: number): number {
  return Math.min(60_000, Math.max(1_000, Math.floor(handleTtlMs / 100)));
}

export class HandleStore {
  readonly #options: HandleStoreOptions;
  /** owner + handle → the expiry this instance last saw stored for it (polls only). */
  readonly #seen = new LRUCache<string, number>({ max: 10_000 });
  readonly #granularityMs: number;

  constructor(options: HandleStoreOptions) {
    this.#options = options;
    this.#granularityMs = slideGranularityMs(options.handleTtlMs);
  }

  /**
   * What a poll does to the handle it names: slides its TTL, with a lag of at most the granularity
   * (decision 2802). While the expiry this instance last saw is within the granularity of now + TTL,
   * nothing is sent; otherwise one statement slides it only if it is older than that (so across every
   * instance, one writes per granularity) and answers the expiry as stored, which this instance then
   * remembers — a refresh another instance made counts here too. A handle polled at t therefore lives
   * until at least t + TTL − granularity. A poll's answer does not depend on the handle existing.
   */
  slide(owner: Owner, handle: string): Promise<void> {
    const key = `${owner.ownerId}\u0000${handle}`;
    const { handleTtlMs, staging, storage } = this.#options;
    // Fresh enough: only what this instance is removing is waited for (nothing, usually: no promise made).
    if (this.#fresh(key)) return staging.settled();
    // Without building the handle a poll does not read, nor waiting on staging when it is there.
    return storage.records.touch<HandleData>(this.#key(owner, handle), handleTtlMs, this.#granularityMs).then((record) => {
      if (record === undefined) {
        this.#seen.delete(key);
        this.#noticeGone(owner, handle);
        return staging.settled();
      }
      if (record.expiresAt !== null) this.#seen.set(key, record.expiresAt);
      return undefined;
    });
  }

  /**
   * `slide` when it has nothing to do and nothing to wait for: the expiry this instance saw is fresh
   * and no staged directory is being removed. True means the poll's slide is done; false, call `slide`.
   */
  slidNow(owner: Owner, handle: string): boolean {
    return this.#options.staging.idle && this.#fresh(`${owner.ownerId}\u0000${handle}`);
  }

  #fresh(key: string): boolean {
    const seen = this.#seen.get(key);
    return seen !== undefined && seen >= this.#options.clock.now() + this.#options.handleTtlMs - this.#granularityMs;
  }

  /** Registers a handle and keeps its archive for other instances; returns the epoch ms it expires at unless refreshed. */
  async add(handle: NewHandle, archive: () => Promise<Buffer>): Promise<number> {
    const { storage, staging } = this.#options;
    staging.track(handle.handle, handle.ownerId, handle.dir);
    await storage.blobs.put(handle.ownerId, handle.handle, archive);
    const expiresAt = handle.createdAt + this.#options.handleTtlMs;
    await storage.records.put<HandleData>({
      collection: HANDLE_COLLECTION,
      ownerId: handle.ownerId,
      id: handle.handle,
      createdAt: handle.createdAt,
      expiresAt,
      data: { manifest: handle.manifest, systemPrompt: handle.systemPrompt },
    });
    return expiresAt;
  }

  /** The live handle with its TTL slid forward, or undefined (unknown, expired or foreign). */
  async touch(owner: Owner, handle: string): Promise<BundleHandle | undefined> {
    const record = await this.#slideRecord(owner, handle);
    await this.#options.staging.settled();
    return record === undefined ? undefined : toHandle(record);
  }

  /** The live record with its TTL slid forward; when there is none, this instance's copy is retired. */
  #slideRecord(owner: Owner, handle: string): Promise<StoredRecord<HandleData> | undefined> {
    return this.#options.storage.records.touch<HandleData>(this.#key(owner, handle), this.#options.handleTtlMs).then((record) => {
      if (record === undefined) this.#noticeGone(owner, handle);
      return record;
    });
  }

  /** Removes the handle if the caller owns it; says nothing either way (DELETE is non-disclosing). */
  async remove(owner: Owner, handle: string): Promise<void> {
    const { storage, staging } = this.#options;
    this.#seen.delete(`${owner.ownerId}\u0000${handle}`);
    if (await storage.records.delete(this.#key(owner, handle))) {
      staging.retire(handle);
      await storage.blobs.delete(owner.ownerId, handle);
    } else {
      this.#noticeGone(owner, handle);
    }
    await staging.settled();
  }

  /** The caller's live handles, newest first. */
  async list(owner: Owner, page: { readonly limit: number; readonly cursor: string | null }): Promise<{ handles: BundleHandle[]; nextCursor: string | null }> {
    const found: ListPage<HandleData> = await this.#options.storage.records.list<HandleData>(HANDLE_COLLECTION, owner.ownerId, page);
    return { handles: found.records.map(toHandle), nextCursor: found.nextCursor };
  }

  /** A lease on the live handle's staged directory on this instance, staging it here first if needed; null when the handle is gone. */
  async lease(owner: Owner, handle: string): Promise<{ readonly handle: BundleHandle; readonly lease: StagingLease } | null> {
    const { storage, staging } = this.#options;
    const record = await storage.records.get<HandleData>(this.#key(owner, handle));
    if (record === undefined) {
      this.#noticeGone(owner, handle);
      return null;
    }
    const found = toHandle(record);
    let lease = staging.acquire(handle);
    if (lease === null) {
      // Registered through another instance: stage its kept archive here (none kept: the handle is gone here).
      const archive = await storage.blobs.get(owner.ownerId, handle);
      const dir = archive === undefined ? null : await this.#options.stager.restage(found, archive);
      if (dir === null) return null;
      staging.track(handle, owner.ownerId, dir);
      lease = staging.acquire(handle);
    }
    return lease === null ? null : { handle: found, lease };
  }

  /** Drops expired handles, retires their copies here and those of handles gone elsewhere; returns how many expired. */
  async sweep(): Promise<number> {
    const { storage, staging } = this.#options;
    const expired = await storage.records.sweep<HandleData>(HANDLE_COLLECTION);
    for (const record of expired) {
      staging.retire(record.id);
      await storage.blobs.delete(record.ownerId, record.id);
    }
    // A handle deleted through another instance leaves a copy here: retire it once its record is gone.
    for (const { handle, ownerId } of staging.handles()) {
      if ((await storage.records.get(this.#key({ ownerId }, handle))) === undefined) staging.retire(handle);
    }
    await staging.settled();
    return expired.length;
  }

  /** The storage says the caller's handle is gone (expired, or deleted elsewhere): retire the copy here now. */
  #noticeGone(owner: Owner, handle: string): void {
    if (this.#options.staging.tracks(handle, owner.ownerId)) this.#options.staging.retire(handle);
  }

  #key(owner: Owner, handle: string): { collection: string; ownerId: string; id: string } {
    return { collection: HANDLE_COLLECTION, ownerId: owner.ownerId, id: handle };
  }
}
