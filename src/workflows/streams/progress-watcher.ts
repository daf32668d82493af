// One watcher's bounded frame buffer. The run's log pushes into it synchronously and never waits for
// a slow watcher: when the buffer is full the oldest frame is dropped and counted, and the next frame
// taken out is a GAP { droppedCount } (its id is the last dropped frame's sequence).
import type { GapFrame, LoggedFrame } from '../events.js';
import type { LogEntry } from '../runs/run-log.js';

export interface OutgoingFrame {
  readonly frame: LoggedFrame | GapFrame;
  readonly id: number;
}

export class ProgressWatcher {
  readonly #capacity: number;
  readonly #buffer: LogEntry[] = [];
  #dropped = 0;
  #lastDropped = 0;
  #wake: (() => void) | undefined;

  constructor(capacity: number) {
    if (!(Number.isSafeInteger(capacity) && capacity >= 1)) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
  }

  push(entry: LogEntry): void {
    if (this.#buffer.length >= this.#capacity) {
      const oldest = this.#buffer.shift()!;
      this.#dropped += 1;
      this.#lastDropped = oldest.sequence;
    }
    this.#buffer.push(entry);
    this.#wake?.();
  }

  /** The next frame to send: a GAP first when frames were dropped since the last one taken. */
  next(): OutgoingFrame | undefined {
    if (this.#dropped > 0) {
      const gap: OutgoingFrame = { frame: { type: 'GAP', droppedCount: this.#dropped }, id: this.#lastDropped };
      this.#dropped = 0;
      return gap;
    }
    const entry = this.#buffer.shift();
    return entry === undefined ? undefined : { frame: entry.frame(), id: entry.sequence };
  }

  get size(): number {
    return this.#buffer.length;
  }

  /** Resolves once a frame is buffered (at once if one is) or the signal aborts. */
  wait(signal: AbortSignal): Promise<void> {
    if (this.#buffer.length > 0 || this.#dropped > 0 || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.#wake = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.#wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
