// A run's numbered event log: frames get consecutive sequence numbers from 1; only the most recent
// `retain` are kept. Watchers subscribe and receive every frame appended after they subscribed, in
// order, synchronously; a re-attaching watcher asks what the log still holds after a sequence.
import type { LoggedFrame } from '../events.js';

/** A logged frame built on first use: frames no watcher ever reads cost no redaction. */
export interface LogEntry {
  readonly sequence: number;
  frame(): LoggedFrame;
}

export type LogListener = (entry: LogEntry) => void;

export class RunLog {
  readonly #retain: number;
  readonly #entries: LogEntry[] = [];
  readonly #listeners = new Set<LogListener>();
  #last = 0;

  constructor(retain: number) {
    if (!(Number.isSafeInteger(retain) && retain >= 1)) throw new RangeError(`retain must be a positive integer, got ${retain}`);
    this.#retain = retain;
  }

  get lastSequence(): number {
    return this.#last;
  }

  /** Sequence of the oldest retained entry (lastSequence + 1 when empty). */
  get firstRetained(): number {
    return this.#retainedEntries()[0]?.sequence ?? this.#last + 1;
  }

  append(build: (sequence: number) => LoggedFrame): LogEntry {
    const sequence = ++this.#last;
    let frame: LoggedFrame | undefined;
    const entry: LogEntry = { sequence, frame: () => (frame ??= build(sequence)) };
    this.#entries.push(entry);
    // Amortised trimming: drop in batches so a long run does not shift the array on every append.
    if (this.#entries.length >= this.#retain * 2) this.#entries.splice(0, this.#entries.length - this.#retain);
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** Entries after `sequence`, or undefined when some of them are no longer retained. */
  since(sequence: number): LogEntry[] | undefined {
    if (sequence + 1 < this.firstRetained) return undefined;
    return this.#retainedEntries().filter((entry) => entry.sequence > sequence);
  }

  subscribe(listener: LogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #retainedEntries(): LogEntry[] {
    return this.#entries.length > this.#retain ? this.#entries.slice(-this.#retain) : this.#entries;
  }
}
