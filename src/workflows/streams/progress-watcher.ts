// One watcher's bounded frame buffer. The run's journal is read ahead of the socket and pushed in
// without ever waiting for a slow watcher: when the buffer is full the oldest frame is dropped and
// counted, and the next frame taken out is a GAP { droppedCount } (its id is the last dropped frame's
// sequence).
import { toLoggedFrame, type GapFrame, type LoggedFrame } from '../events.js';
import type { RunEvent } from '../runs/workflow-run.js';

export interface OutgoingFrame {
  readonly frame: LoggedFrame | GapFrame;
  readonly id: number;
}

interface Entry {
  readonly seq: number;
  readonly event: RunEvent;
}

export class ProgressWatcher {
  readonly #capacity: number;
  readonly #buffer: Entry[] = [];
  #dropped = 0;
  #lastDropped = 0;
  #wake: (() => void) | undefined;

  constructor(capacity: number) {
    if (!(Number.isSafeInteger(capacity) && capacity >= 1)) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.#capacity = capacity;
  }

  push(entry: Entry): void {
    if (this.#buffer.length >= this.#capacity) {
      const oldest = this.#buffer.shift()!;
      this.#dropped += 1;
      this.#lastDropped = oldest.seq;
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
    return entry === undefined ? undefined : { frame: toLoggedFrame(entry.seq, entry.event), id: entry.seq };
  }

  get size(): number {
    return this.#buffer.length;
  }

  /** Nothing to send: no frame buffered and no GAP owed. */
  get empty(): boolean {
    return this.#buffer.length === 0 && this.#dropped === 0;
  }

  /** Ends a wait at once (the follower is done: the stream looks at what is left and ends). */
  wake(): void {
    this.#wake?.();
  }

  /** Resolves once a frame is buffered (at once if one is), the watcher is woken, or the signal aborts. */
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
