// Decides when a queued run starts: first come, first served, while fewer than MAX_EXECUTING_RUNS
// execute host-wide and the run's owner has none executing (one owner's runs go one after another, so
// a second run of the same caller waits Queued and can still be cancelled outright). Event driven: a
// run is started on enqueue or when another finishes — there is no polling loop.
import type { ActiveRun } from './eval-run.js';

/** Eval runs executing at once on this host; each draws up to its own `parallelism` case slots. */
export const MAX_EXECUTING_RUNS = 4;

export class EvalDispatcher {
  readonly #execute: (run: ActiveRun) => Promise<void>;
  readonly #queue: ActiveRun[] = [];
  readonly #executingOwners = new Set<string>();
  readonly #running = new Set<Promise<void>>();
  #stopped = false;

  /** `execute` must not reject: it settles the run itself. */
  constructor(execute: (run: ActiveRun) => Promise<void>) {
    this.#execute = execute;
  }

  enqueue(run: ActiveRun): void {
    if (this.#stopped) return;
    this.#queue.push(run);
    this.#pump();
  }

  /** Takes a run that has not started out of the queue; false when it already started (or was never queued). */
  withdraw(run: ActiveRun): boolean {
    const index = this.#queue.indexOf(run);
    if (index === -1) return false;
    this.#queue.splice(index, 1);
    return true;
  }

  /** Starts nothing more (host shutdown); queued runs are dropped with the process. Resolves once every started run settled. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#queue.length = 0;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #pump(): void {
    for (let index = 0; index < this.#queue.length && this.#running.size < MAX_EXECUTING_RUNS; ) {
      const run = this.#queue[index] as ActiveRun;
      if (this.#executingOwners.has(run.ownerId)) {
        index += 1;
        continue;
      }
      this.#queue.splice(index, 1);
      this.#start(run);
    }
  }

  #start(run: ActiveRun): void {
    this.#executingOwners.add(run.ownerId);
    const running = this.#execute(run).finally(() => {
      this.#running.delete(running);
      this.#executingOwners.delete(run.ownerId);
      this.#pump();
    });
    this.#running.add(running);
  }
}
