// A FIFO lock per key whose wait can be abandoned: runs naming one conversation take turns, and a run
// cancelled while waiting gives up its place without ever holding the lock.

export type Unlock = () => void;

export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Resolves with an unlock function once every earlier holder of `key` has unlocked. */
  async acquire(key: string, signal: AbortSignal): Promise<Unlock> {
    signal.throwIfAborted();
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let unlock!: Unlock;
    const held = new Promise<void>((resolve) => (unlock = resolve));
    const tail = previous.then(() => held);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    try {
      await waitOrAbort(previous, signal);
    } catch (error) {
      // Keep the queue moving: our turn passes straight through once it comes.
      void previous.then(unlock);
      throw error;
    }
    let unlocked = false;
    return () => {
      if (unlocked) return;
      unlocked = true;
      unlock();
    };
  }

  /** Keys someone holds or waits for. */
  get size(): number {
    return this.#tails.size;
  }
}

function waitOrAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
