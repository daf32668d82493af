// The background dispatcher: runs queued background runs first in, first out, at most
// MaxConcurrentDispatchedBundleRuns at once host-wide; the rest wait. Event-driven: a slot freeing
// starts the next run, nothing polls.

export interface DispatcherOptions<J> {
  readonly maxConcurrent: number;
  readonly execute: (job: J) => Promise<void>;
  readonly onError: (err: unknown) => void;
}

export class Dispatcher<J> {
  readonly #queue: J[] = [];
  readonly #running = new Set<Promise<void>>();
  readonly #options: DispatcherOptions<J>;
  #closed = false;

  constructor(options: DispatcherOptions<J>) {
    if (!(Number.isSafeInteger(options.maxConcurrent) && options.maxConcurrent >= 1)) {
      throw new RangeError(`maxConcurrent must be a positive integer, got ${options.maxConcurrent}`);
    }
    this.#options = options;
  }

  enqueue(job: J): void {
    if (this.#closed) throw new Error('the dispatcher is closed');
    this.#queue.push(job);
    this.#pump();
  }

  get queued(): number {
    return this.#queue.length;
  }

  get running(): number {
    return this.#running.size;
  }

  /** Stops taking jobs; returns the ones never started and waits for the running ones to end. */
  async close(): Promise<J[]> {
    this.#closed = true;
    const unstarted = this.#queue.splice(0);
    await Promise.all([...this.#running]);
    return unstarted;
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#options.maxConcurrent && this.#queue.length > 0) {
      const job = this.#queue.shift() as J;
      const execution: Promise<void> = this.#options
        .execute(job)
        .catch((err: unknown) => this.#options.onError(err))
        .finally(() => {
          this.#running.delete(execution);
          this.#pump();
        });
      this.#running.add(execution);
    }
  }
}
