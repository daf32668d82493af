// Runs CPU-bound work on untrusted input off the event loop: a few warm threads (worker-slot.ts), each
// request under a hard time bound, shared fairly between owners (fair-queue.ts). One owner holds at most
// `maxRunningPerOwner` threads (by default all but one, so another owner always finds one), and what may
// wait is bounded per owner and in all: a request past either bound is answered `busy` at once, never
// queued. It does not know what the work is: the caller names a handler module, a real typechecked module.
import { FairQueue } from './fair-queue.js';
import { ABORTED, BUSY, type WorkerOutcome } from './worker-outcome.js';
import { WorkerSlot, type ThreadSpec } from './worker-slot.js';

export interface WorkerPoolOptions extends ThreadSpec {
  /** Threads, started as requests need them and kept warm; default 2. */
  readonly threads?: number;
  /** Threads one owner may hold at once; default `threads - 1` (at least 1). */
  readonly maxRunningPerOwner?: number;
  /** Requests one owner may have waiting; default 8. */
  readonly maxWaitingPerOwner?: number;
  /** Requests waiting over every owner; default 32. */
  readonly maxWaiting?: number;
}

/** How many threads a pool has and how much may wait for them (every field has a default). */
export type PoolBounds = Pick<WorkerPoolOptions, 'threads' | 'maxRunningPerOwner' | 'maxWaitingPerOwner' | 'maxWaiting'>;

interface Job {
  readonly request: unknown;
  readonly signal: AbortSignal;
  readonly resolve: (outcome: WorkerOutcome) => void;
  readonly onAbort: () => void;
}

export class WorkerPool {
  readonly #slots: readonly WorkerSlot[];
  readonly #queue: FairQueue<Job>;
  readonly #maxWaitingPerOwner: number;
  readonly #maxWaiting: number;
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    const threads = positive(options.threads ?? 2, 'threads');
    this.#slots = Array.from({ length: threads }, () => new WorkerSlot(options));
    this.#queue = new FairQueue(positive(options.maxRunningPerOwner ?? Math.max(1, threads - 1), 'maxRunningPerOwner'));
    this.#maxWaitingPerOwner = positive(options.maxWaitingPerOwner ?? 8, 'maxWaitingPerOwner');
    this.#maxWaiting = positive(options.maxWaiting ?? 32, 'maxWaiting');
  }

  /** Never rejects; `owner` is the caller's owner id, the unit of fairness and of the waiting bound. */
  run(owner: string, request: unknown, signal: AbortSignal): Promise<WorkerOutcome> {
    if (this.#closed || signal.aborted) return Promise.resolve(ABORTED);
    return new Promise((resolve) => {
      const job: Job = {
        request,
        signal,
        resolve,
        onAbort: () => {
          if (this.#queue.withdraw(owner, job)) resolve(ABORTED);
        },
      };
      // Removed again when a thread takes the job (the slot listens from then on) or it is refused.
      signal.addEventListener('abort', job.onAbort, { once: true });
      this.#queue.push(owner, job);
      this.#pump();
      // The bounds apply to what is left waiting once free threads took what they may: the newcomer
      // is refused, never someone already in line.
      if (this.#queue.waitingFor(owner) > this.#maxWaitingPerOwner || this.#queue.waiting > this.#maxWaiting) {
        if (this.#queue.withdraw(owner, job)) {
          signal.removeEventListener('abort', job.onAbort);
          resolve(BUSY);
        }
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.drain()) {
      job.signal.removeEventListener('abort', job.onAbort);
      job.resolve(ABORTED);
    }
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }

  /**
   * Starts what may start. The slot a request just freed goes first to whoever is next (it pays for
   * that slot's fresh thread, if its predecessor's was stopped); arrivals prefer a warm idle slot.
   */
  #pump(freed?: WorkerSlot): void {
    for (let preferred = freed; !this.#closed; preferred = undefined) {
      const slot = preferred !== undefined && !preferred.busy ? preferred : this.#idleSlot();
      if (slot === undefined) return;
      const next = this.#queue.take();
      if (next === undefined) return;
      const { owner, item: job } = next;
      job.signal.removeEventListener('abort', job.onAbort);
      slot.run(job.request, job.signal, (outcome) => {
        this.#queue.finish(owner);
        job.resolve(outcome);
        this.#pump(slot);
      });
    }
  }

  #idleSlot(): WorkerSlot | undefined {
    let idle: WorkerSlot | undefined;
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      if (slot.warm) return slot;
      idle ??= slot;
    }
    return idle;
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
