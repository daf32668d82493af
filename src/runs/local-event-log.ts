// A run's numbered event log held in this process only: the bundle stream frames of a run driven
// inline on the connection that opened its stream (SPEC.md: such a stream is neither shared nor
// resumable, so its frames are never stored). Event-driven (a waiting reader is woken by append or close).

export interface LoggedEvent<E> {
  /** 1-based, gap-free. */
  readonly seq: number;
  readonly event: E;
}

export class LocalEventLog<E> {
  readonly #events: LoggedEvent<E>[] = [];
  #closed = false;
  #wake: (() => void) | null = null;
  #changed: Promise<void> = this.#nextChange();

  get closed(): boolean {
    return this.#closed;
  }

  get length(): number {
    return this.#events.length;
  }

  /** Appends an event and returns its sequence number; appending to a closed log is a bug. */
  append(event: E): number {
    if (this.#closed) throw new Error('append to a closed run event log');
    const seq = this.#events.length + 1;
    this.#events.push({ seq, event });
    this.#notify();
    return seq;
  }

  /** No further events; readers finish once they have read everything. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#notify();
  }

  /** Every event with seq > `after`, then each one as it is appended, until the log closes or `signal` aborts. */
  async *read(after = 0, signal?: AbortSignal): AsyncGenerator<LoggedEvent<E>> {
    let next = after;
    for (;;) {
      while (next < this.#events.length) {
        const logged = this.#events[next];
        next += 1;
        if (logged !== undefined) yield logged;
      }
      if (this.#closed || signal?.aborted) return;
      await this.#untilChange(signal);
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#changed = this.#nextChange();
    wake?.();
  }

  #nextChange(): Promise<void> {
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }

  #untilChange(signal: AbortSignal | undefined): Promise<void> {
    if (signal === undefined) return this.#changed;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      void this.#changed.then(done);
    });
  }
}
