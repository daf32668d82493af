// Caps on things in progress at once (open streams, executing invocations) per key across every
// instance on the same storage (DESIGN §11: per-owner caps count across instances), and optionally
// host-wide on this instance (host caps stay per instance). Excess is refused at once, never queued.
// Slots belong to this instance and lapse unless its heartbeat renews them, so a crash frees them.
import type { SlotStore } from '../storage/index.js';
import { immediateSlots, type ImmediateSlots } from '../storage/immediate-answers.js';
import { promiseOf } from '../promise/index.js';
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

  /** A lease on one slot, or null when the key (anywhere) or this host is at its limit. A store that fails rejects. */
  tryAcquire(key: string): Promise<SlotLease | null> {
    if (this.#immediate !== undefined) return promiseOf(() => Promise.resolve(this.tryAcquireNow(key)));
    const o = this.#options;
    if (this.#total >= (o.globalLimit ?? Number.POSITIVE_INFINITY)) return Promise.resolve(null);
    this.#total += 1;
    return o.slots.acquire(o.kind, key, o.limitPerKey, o.holder, o.ttlMs).then(
      (taken) => this.#leaseOf(taken),
      (error: unknown) => {
        this.#total -= 1;
        throw error;
      },
    );
  }

  /** Whether the slot store is in this process (Memory), so `tryAcquireNow` can answer without a promise. */
  get answersAtOnce(): boolean {
    return this.#immediate !== undefined;
  }

  /** `tryAcquire` answered at once, for a request path that waits on no promise; only when `answersAtOnce`. */
  tryAcquireNow(key: string): SlotLease | null {
    const o = this.#options;
    if (this.#immediate === undefined) throw new Error(`the ${o.kind} slots are not in this process`);
    if (this.#total >= (o.globalLimit ?? Number.POSITIVE_INFINITY)) return null;
    this.#total += 1;
    try {
      return this.#leaseOf(this.#immediate.acquire(o.kind, key, o.limitPerKey, o.holder, o.ttlMs));
    } catch (error) {
      this.#total -= 1;
      throw error;
    }
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
