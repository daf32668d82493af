// Caps on things in progress at once (open streams, executing invocations) per key across every
// instance on the same storage (DESIGN §11: per-owner caps count across instances), and optionally
// host-wide on this instance (host caps stay per instance). Excess is refused at once, never queued.
// Slots belong to this instance and lapse unless its heartbeat renews them, so a crash frees them.
import type { SlotStore } from '../storage/index.js';
import type { SlotLease } from './concurrency-slots.js';

export interface SharedSlotsOptions {
  readonly slots: SlotStore;
  /** What is being counted ('bundle-stream', 'tool-invocation', …). */
  readonly kind: string;
  readonly limitPerKey: number;
  /** This instance: the holder of its slots. */
  readonly holder: string;
  readonly ttlMs: number;
  /** Cap over all keys together on this instance; default none. */
  readonly globalLimit?: number;
}

export class SharedSlots {
  readonly #o: SharedSlotsOptions;
  #total = 0;

  constructor(options: SharedSlotsOptions) {
    this.#o = options;
  }

  /**
   * A lease on one slot, or null when the key (anywhere) or this host is at its limit; at once when
   * the store answers at once (Memory), else a promise. A store that fails rejects (or throws).
   */
  tryAcquire(key: string): SlotLease | null | Promise<SlotLease | null> {
    if (this.#total >= (this.#o.globalLimit ?? Number.POSITIVE_INFINITY)) return null;
    this.#total += 1;
    let id: string | null | Promise<string | null>;
    try {
      id = this.#o.slots.acquire(this.#o.kind, key, this.#o.limitPerKey, this.#o.holder, this.#o.ttlMs);
    } catch (error) {
      this.#total -= 1;
      throw error;
    }
    if (!(id instanceof Promise)) return this.#leaseOf(id);
    return id.then(
      (taken) => this.#leaseOf(taken),
      (error: unknown) => {
        this.#total -= 1;
        throw error;
      },
    );
  }

  #leaseOf(id: string | null): SlotLease | null {
    if (id === null) {
      this.#total -= 1;
      return null;
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#total -= 1;
        // A failed release lapses with the slot's lease; nothing to report to the caller.
        try {
          const done = this.#o.slots.release(id);
          if (done instanceof Promise) done.catch(() => undefined);
        } catch {
          // As above: the slot lapses.
        }
      },
    };
  }

  /** Slots held on this instance (for metrics). */
  total(): number {
    return this.#total;
  }
}
