// Bundle handles: owned (foreign ≡ unknown by construction), with a sliding HandleTtl that every
// request naming the handle refreshes. Whenever a handle leaves the store — deleted, found expired on
// access, or swept — its staging directory is retired, and removed once no running run leases it.
import type { Clock } from '../platform/clock/index.js';
import { OwnedStore, type Owner } from '../platform/ownership/index.js';
import { MemoryTtlStore } from '../platform/store/index.js';
import type { BundleHandle } from './bundle-handle.js';
import type { StagingLease, StagingLeases } from './staging-leases.js';

export interface HandleStoreOptions {
  readonly clock: Clock;
  readonly handleTtlMs: number;
  readonly leases: StagingLeases;
}

export class HandleStore {
  readonly #handles: OwnedStore<BundleHandle>;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #leases: StagingLeases;

  constructor(options: HandleStoreOptions) {
    this.#ttlMs = options.handleTtlMs;
    this.#clock = options.clock;
    this.#leases = options.leases;
    // Expiries noticed on access retire the directory exactly like a sweep would.
    const store = new MemoryTtlStore<BundleHandle>({ clock: options.clock, onEvict: (_key, handle) => this.#leases.retire(handle.dir) });
    this.#handles = new OwnedStore(store);
  }

  /** Registers a handle; returns the epoch ms it expires at unless refreshed (the `expiresAt` floor). */
  async add(handle: BundleHandle): Promise<number> {
    this.#leases.track(handle.dir);
    await this.#handles.put({ ownerId: handle.ownerId }, handle.handle, handle, this.#ttlMs);
    return this.#clock.now() + this.#ttlMs;
  }

  /** The live handle with its TTL slid forward, or undefined (unknown, expired or foreign). */
  async touch(owner: Owner, handle: string): Promise<BundleHandle | undefined> {
    const found = await this.#handles.touch(owner, handle, this.#ttlMs);
    await this.#leases.settled();
    return found;
  }

  /** Removes the handle if the caller owns it; says nothing either way (DELETE is non-disclosing). */
  async remove(owner: Owner, handle: string): Promise<void> {
    const found = await this.#handles.find(owner, handle);
    if (found !== undefined) {
      await this.#handles.remove(owner, handle);
      this.#leases.retire(found.dir);
    }
    await this.#leases.settled();
  }

  /** A lease on the live handle's directory for a run about to start, or null when the handle is gone. */
  async lease(owner: Owner, handle: string): Promise<{ readonly handle: BundleHandle; readonly lease: StagingLease } | null> {
    const found = await this.#handles.find(owner, handle);
    if (found === undefined) return null;
    const lease = this.#leases.acquire(found.dir);
    return lease === null ? null : { handle: found, lease };
  }

  /** Drops expired handles and retires their directories; returns how many. */
  async sweep(): Promise<number> {
    const expired = await this.#handles.sweep();
    for (const handle of expired) this.#leases.retire(handle.dir);
    await this.#leases.settled();
    return expired.length;
  }
}
