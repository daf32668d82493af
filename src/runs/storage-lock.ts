// A keyed lock across every instance on the same storage (runs naming one conversation take turns): a
// slot of limit 1, held by this instance and renewed by its heartbeat, so a crashed holder's lock lapses
// within the lease TTL. Waiters wake on the release signal, and re-try on a timer in case the holder
// died. A waiter that is cancelled gives up without ever holding the lock. Not FIFO across instances.
import type { Storage } from '../platform/storage/index.js';

export type Unlock = () => void;

export class StorageLock {
  readonly #storage: Storage;
  readonly #kind: string;
  readonly #holder: string;
  readonly #ttlMs: number;

  constructor(options: { readonly storage: Storage; readonly kind: string; readonly holder: string; readonly ttlMs: number }) {
    this.#storage = options.storage;
    this.#kind = options.kind;
    this.#holder = options.holder;
    this.#ttlMs = options.ttlMs;
  }

  /** Resolves with the unlock once this caller holds `key`; rejects with the signal's reason if it aborts first. */
  async acquire(key: string, signal: AbortSignal): Promise<Unlock> {
    const topic = `lock:${this.#kind}:${key}`;
    for (;;) {
      signal.throwIfAborted();
      let freed = false;
      let wake: (() => void) | undefined;
      const unsubscribe = this.#storage.signals.subscribe(topic, () => {
        freed = true;
        wake?.();
      });
      try {
        const slot = await this.#storage.slots.acquire(this.#kind, key, 1, this.#holder, this.#ttlMs);
        if (slot !== null) {
          if (signal.aborted) {
            await this.#release(slot, topic);
            signal.throwIfAborted();
          }
          let released = false;
          return () => {
            if (released) return;
            released = true;
            // Nobody awaits an unlock: a release the storage refuses (it went away, or is closing) must
            // not become an unhandled rejection. The slot then lapses with its lease TTL, as a crashed
            // holder's does.
            this.#release(slot, topic).catch(() => undefined);
          };
        }
        if (!freed && !signal.aborted) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, Math.max(20, Math.floor(this.#ttlMs / 3)));
            function done(): void {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              resolve();
            }
            wake = done;
            signal.addEventListener('abort', done, { once: true });
          });
        }
      } finally {
        unsubscribe();
      }
    }
  }

  async #release(slot: string, topic: string): Promise<void> {
    await this.#storage.slots.release(slot);
    await this.#storage.signals.publish(topic, 'free');
  }
}
