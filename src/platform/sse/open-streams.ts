// The streams a feature has open, so shutdown can end them in order: each is served with a `finish`
// signal that shutdown aborts (the stream then sends what it has — a terminal frame where its protocol
// has one — and closes), and shutdown waits for them, within a grace period.
import { withinGrace } from '../promise/index.js';

export class OpenStreams {
  readonly #open = new Map<Promise<void>, AbortController>();
  #finishing = false;

  get size(): number {
    return this.#open.size;
  }

  /** Serves one stream until it ends; `finish` aborts when the host stops (at once, if it already is). */
  async serve(stream: (finish: AbortSignal) => Promise<void>): Promise<void> {
    const finish = new AbortController();
    if (this.#finishing) finish.abort();
    const serving = stream(finish.signal);
    this.#open.set(serving, finish);
    try {
      await serving;
    } finally {
      this.#open.delete(serving);
    }
  }

  /** Asks every open stream to finish and waits for them, at most `graceMs`. */
  async finishAll(graceMs: number): Promise<void> {
    this.#finishing = true;
    for (const finish of this.#open.values()) finish.abort();
    await withinGrace(Promise.allSettled([...this.#open.keys()]), graceMs);
  }
}
