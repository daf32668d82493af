// Caps on things in progress at once (open streams, executing invocations) per key across every
// instance on the same storage (DESIGN §11: per-owner caps count across instances), and optionally
// host-wide on this instance (host caps stay per instance). Excess is refused at once, never queued.
// Slots belong to this instance and lapse unless its heartbeat renews them, so a crash frees them.
import type { SlotStore } from '../storage/index.js';
import { immediateSlots, type ImmediateSlots } from '../storage/immediate-answers.js';
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
  readonly #options: SharedSlotsOptions;
  /** The store's synchronous answers, when it is in this process (platform-private). */
  readonly #immediate: ImmediateSlots | undefined;
  #total = 0;

  constructor(options: SharedSlotsOptions) {
    this.#options = options;
    this.#immediate = immediateSlots(options.slots);
  }

  /**
   * A lease on one slot, or null when the key (anywhere) or this host is at its limit; at once when
   * the store is in this process (Memory), else a promise. A store that fails rejects (or throws).
   */
  tryAcquire(key: string): SlotLease | null | Promise<SlotLease | null> {
    const o = this.#options;
    if (this.#total >= (o.globalLimit ?? Number.POSITIVE_INFINITY)) return null;
    this.#total += 1;
    if (this.#immediate !== undefined) {
      try {
        return this.#leaseOf(this.#immediate.acquire(o.kind, key, o.limitPerKey, o.holder, o.ttlMs));
      } catch (error) {
        this.#total -= 1;
        throw error;
      }
    }
    return o.slots.acquire(o.kind, key, o.limitPerKey, o.holder, o.ttlMs).then(
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
        if (this.#immediate !== undefined) this.#immediate.release(id);
        else this.#options.slots.release(id).catch(() => undefined);
      },
    };
  }

  /** Slots held on this instance (for metrics). */
  total(): number {
    return this.#total;
  }
}
