// One call at a time per key (owner + tool) for tools that are not concurrency-safe. Waiters queue in
// order and leave the queue when their signal aborts.
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    try {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        const onAbort = (): void => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        void previous.then(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
      return await work();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
