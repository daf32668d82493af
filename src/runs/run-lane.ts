// One dispatch lane per run kind: queued runs start while fewer than `maxConcurrent` execute on this
// instance (host-wide caps stay per instance, DESIGN §11) and, when set, while their owner has fewer
// than `maxConcurrentPerOwner` executing here. Fair between owners (DESIGN §17): the next free slot
// goes to the owner with the fewest runs executing here, ties to the oldest queued run — so an owner
// flooding the lane with slow runs delays another's by one slot's turn at most. Event-driven: a slot
// freeing starts the next run; nothing polls. A run parked on a human gate gives its slot back and
// takes one again when it resumes (without waiting: resuming never blocks on the cap).

export interface LaneJob {
  readonly id: string;
  readonly ownerId: string;
  start(slot: LaneSlot): void;
}

export interface LaneSlot {
  /** Gives the slot back while the run waits on a person; idempotent. */
  park(): void;
  /** Takes a slot again after park(); idempotent. */
  unpark(): void;
  /** The run ended; idempotent. */
  release(): void;
}

export interface LaneOptions {
  readonly maxConcurrent: number;
  readonly maxConcurrentPerOwner?: number;
}

export class RunLane {
  readonly #options: LaneOptions;
  readonly #queue: LaneJob[] = [];
  readonly #perOwner = new Map<string, number>();
  #executing = 0;
  #closed = false;

  constructor(options: LaneOptions) {
    if (!(Number.isSafeInteger(options.maxConcurrent) && options.maxConcurrent >= 1)) {
      throw new RangeError(`maxConcurrent must be a positive integer, got ${options.maxConcurrent}`);
    }
    this.#options = options;
  }

  get queued(): number {
    return this.#queue.length;
  }

  get executing(): number {
    return this.#executing;
  }

  enqueue(job: LaneJob): void {
    if (this.#closed) return;
    this.#queue.push(job);
    this.#pump();
  }

  /**
   * A slot for a job of `ownerId` that starts now without queueing: only while nothing waits (the
   * queue's fairness stays whole) and both caps leave room; null otherwise. Released like any slot.
   */
  reserve(ownerId: string): LaneSlot | null {
    if (this.#closed || this.#queue.length > 0 || this.#executing >= this.#options.maxConcurrent) return null;
    if ((this.#perOwner.get(ownerId) ?? 0) >= (this.#options.maxConcurrentPerOwner ?? Number.POSITIVE_INFINITY)) return null;
    return this.#take(ownerId);
  }

  /** Whether a job with this id waits in the queue. */
  has(id: string): boolean {
    return this.#queue.some((job) => job.id === id);
  }

  /** Takes a job that has not started out of the queue; false when it started or was never queued. */
  withdraw(id: string): boolean {
    const index = this.#queue.findIndex((job) => job.id === id);
    if (index === -1) return false;
    this.#queue.splice(index, 1);
    return true;
  }

  /** Starts nothing more; returns the jobs that never started. */
  close(): LaneJob[] {
    this.#closed = true;
    return this.#queue.splice(0);
  }

  #pump(): void {
    while (!this.#closed && this.#executing < this.#options.maxConcurrent) {
      const index = this.#fairest();
      if (index === -1) return;
      const [job] = this.#queue.splice(index, 1) as [LaneJob];
      job.start(this.#take(job.ownerId));
    }
  }

  /** The queued job to start next: its owner executes the fewest here (under its cap), the oldest on a tie. */
  #fairest(): number {
    const cap = this.#options.maxConcurrentPerOwner ?? Number.POSITIVE_INFINITY;
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (let index = 0; index < this.#queue.length; index += 1) {
      const executing = this.#perOwner.get((this.#queue[index] as LaneJob).ownerId) ?? 0;
      // Queue order is age order: a later job of as few executing never wins the tie.
      if (executing < cap && executing < fewest) {
        best = index;
        fewest = executing;
        if (executing === 0) break;
      }
    }
    return best;
  }

  #take(ownerId: string): LaneSlot {
    let held = true;
    let ended = false;
    const acquire = (): void => {
      this.#executing += 1;
      this.#perOwner.set(ownerId, (this.#perOwner.get(ownerId) ?? 0) + 1);
    };
    const giveBack = (): void => {
      this.#executing -= 1;
      const left = (this.#perOwner.get(ownerId) ?? 1) - 1;
      if (left > 0) this.#perOwner.set(ownerId, left);
      else this.#perOwner.delete(ownerId);
      this.#pump();
    };
    acquire();
    return {
      park: () => {
        if (!held || ended) return;
        held = false;
        giveBack();
      },
      unpark: () => {
        if (held || ended) return;
        held = true;
        acquire();
      },
      release: () => {
        if (ended) return;
        ended = true;
        if (held) giveBack();
        held = false;
      },
    };
  }
}
