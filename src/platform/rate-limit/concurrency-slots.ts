// Caps on things in progress at once (open streams, executing invocations), per key and optionally
// host-wide. Excess is refused at once, never queued: the caller answers 429.

export interface ConcurrencySlotsOptions {
  readonly limitPerKey: number;
  /** Cap over all keys together; default none. */
  readonly globalLimit?: number;
}

export interface SlotLease {
  /** Frees the slot; calling it again does nothing. */
  release(): void;
}

export class ConcurrencySlots {
  readonly #limitPerKey: number;
  readonly #globalLimit: number;
  readonly #inUse = new Map<string, number>();
  #total = 0;

  constructor(options: ConcurrencySlotsOptions) {
    const { limitPerKey, globalLimit = Number.POSITIVE_INFINITY } = options;
    if (!isPositiveInteger(limitPerKey)) throw new RangeError(`limitPerKey must be a positive integer, got ${limitPerKey}`);
    if (globalLimit !== Number.POSITIVE_INFINITY && !isPositiveInteger(globalLimit)) {
      throw new RangeError(`globalLimit must be a positive integer, got ${globalLimit}`);
    }
    this.#limitPerKey = limitPerKey;
    this.#globalLimit = globalLimit;
  }

  /** A lease on one slot, or null when the key or the host is at its limit. */
  tryAcquire(key: string): SlotLease | null {
    const held = this.inUse(key);
    if (held >= this.#limitPerKey || this.#total >= this.#globalLimit) return null;
    this.#inUse.set(key, held + 1);
    this.#total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#free(key);
      },
    };
  }

  inUse(key: string): number {
    return this.#inUse.get(key) ?? 0;
  }

  total(): number {
    return this.#total;
  }

  #free(key: string): void {
    const held = this.inUse(key) - 1;
    if (held > 0) this.#inUse.set(key, held);
    else this.#inUse.delete(key);
    this.#total -= 1;
  }
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}
