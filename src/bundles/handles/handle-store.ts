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

/** A poll slides a handle's TTL at most once a second per instance (see `slide`). */
const SLIDE_GRANULARITY_MS = 1_000;

export class HandleStore {
  readonly #options: HandleStoreOptions;
  /** owner + handle → when this instance last slid it (polls only). */
  readonly #slid = new LRUCache<string, number>({ max: 10_000 });

  constructor(options: HandleStoreOptions) {
    this.#options = options;
  }

  /**
   * What a poll does to the handle it names: slides its TTL, at most once a second per instance (a
   * write per poll would be a database round trip per poll; the TTL, whose expiresAt is a floor, then
   * slides with one-second granularity). A poll's answer does not depend on the handle existing.
   */
  slide(owner: Owner, handle: string): Promise<void> {
    const key = `${owner.ownerId}\u0000${handle}`;
    const now = this.#options.clock.now();
    const last = this.#slid.get(key);
    // Slid a moment ago: only what this instance is removing is waited for (nothing, usually: no promise made).
    if (last !== undefined && now - last < SLIDE_GRANULARITY_MS) return this.#options.staging.settled();
    this.#slid.set(key, now);
    // Without building the handle a poll does not read, nor waiting on staging when it is there.
    return this.#slideRecord(owner, handle).then((record) => (record === undefined ? this.#options.staging.settled() : undefined));
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
