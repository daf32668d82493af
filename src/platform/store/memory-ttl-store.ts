// In-memory TtlStore on an injected Clock. Every value the store drops on its own is handed back exactly
// once: through sweep()'s result, or through onEvict (capacity evictions and expiries noticed on access).
import type { Clock } from '../clock/index.js';
import type { TtlStore } from './ttl-store.js';

export interface MemoryTtlStoreOptions<V> {
  readonly clock: Clock;
  /** Upper bound on entries; when full, the least recently set or touched entry is evicted. Default unbounded. */
  readonly maxEntries?: number;
  /** Called with each entry evicted for capacity or found expired outside sweep(); must not throw. */
  readonly onEvict?: (key: string, value: V) => void;
}

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

export class MemoryTtlStore<V> implements TtlStore<V> {
  readonly #clock: Clock;
  readonly #maxEntries: number;
  readonly #onEvict: (key: string, value: V) => void;
  // Map order is write/touch order, so the first entry is the eviction candidate.
  readonly #entries = new Map<string, Entry<V>>();

  constructor(options: MemoryTtlStoreOptions<V>) {
    const { maxEntries = Number.POSITIVE_INFINITY } = options;
    if (maxEntries !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(maxEntries) && maxEntries >= 1)) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
    this.#clock = options.clock;
    this.#maxEntries = maxEntries;
    this.#onEvict = options.onEvict ?? (() => undefined);
  }

  get(key: string): Promise<V | undefined> {
    return settle(() => this.#live(key)?.value);
  }

  set(key: string, value: V, ttlMs: number): Promise<void> {
    return settle(() => {
      assertTtl(ttlMs);
      this.#live(key); // reports an expired predecessor before it is overwritten
      this.#entries.delete(key);
      this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlMs });
      for (const [oldKey, oldEntry] of this.#entries) {
        if (this.#entries.size <= this.#maxEntries) break;
        this.#entries.delete(oldKey);
        this.#onEvict(oldKey, oldEntry.value);
      }
    });
  }

  touch(key: string, ttlMs: number): Promise<V | undefined> {
    return settle(() => {
      assertTtl(ttlMs);
      const entry = this.#live(key);
      if (entry === undefined) return undefined;
      this.#entries.delete(key);
      this.#entries.set(key, { value: entry.value, expiresAt: this.#clock.now() + ttlMs });
      return entry.value;
    });
  }

  delete(key: string): Promise<boolean> {
    return settle(() => {
      const live = this.#live(key) !== undefined;
      this.#entries.delete(key);
      return live;
    });
  }

  expiresAt(key: string): Promise<number | undefined> {
    return settle(() => this.#live(key)?.expiresAt);
  }

  sweep(): Promise<V[]> {
    return settle(() => {
      const now = this.#clock.now();
      const expired: V[] = [];
      for (const [key, entry] of this.#entries) {
        if (entry.expiresAt > now) continue;
        this.#entries.delete(key);
        expired.push(entry.value);
      }
      return expired;
    });
  }

  size(): Promise<number> {
    return settle(() => this.#liveEntries().length);
  }

  values(): Promise<V[]> {
    return settle(() => this.#liveEntries().map((entry) => entry.value));
  }

  // An entry is expired from its expiresAt instant onwards.
  #live(key: string): Entry<V> | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expiresAt > this.#clock.now()) return entry;
    this.#entries.delete(key);
    this.#onEvict(key, entry.value);
    return undefined;
  }

  // Read-only: expired entries stay for sweep() to hand back.
  #liveEntries(): Entry<V>[] {
    const now = this.#clock.now();
    return [...this.#entries.values()].filter((entry) => entry.expiresAt > now);
  }
}

function assertTtl(ttlMs: number): void {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be a positive finite number, got ${ttlMs}`);
}

// Synchronous work behind the async contract: a throw becomes a rejection, as it would from a remote store.
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
