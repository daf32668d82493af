// Decides when a workflow run stops executing to wait for a person (decision 3701): once it is
// blocked — nothing running, a gate waiting — and still is after the current turn of the event loop
// (a gate re-opened on an approval already decided releases its step in the same turn), `parked`
// is aborted: the executor drains the graph and hands the run to the engine to park. Forwards every
// report to the recorder until then; after that (the graph being torn down) nothing is recorded.
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';

export class ParkWhenBlocked implements ExecutionObserver {
  readonly #recorder: ExecutionObserver;
  /** Whether the recorder wrote the run Blocked (it does only with a pending approval to name). */
  readonly #recordedBlocked: () => boolean;
  readonly #parked = new AbortController();
  #blocked = false;
  #closed = false;

  constructor(recorder: ExecutionObserver, recordedBlocked: () => boolean) {
    this.#recorder = recorder;
    this.#recordedBlocked = recordedBlocked;
  }

  /** Aborted when the run should leave memory and wait parked. */
  get parked(): AbortSignal {
    return this.#parked.signal;
  }

  stepChanged(step: GraphStep, change: StepChange): void {
    if (!this.#closed) this.#recorder.stepChanged(step, change);
  }

  runBlocked(): void {
    if (this.#closed) return;
    this.#blocked = true;
    this.#recorder.runBlocked();
    setImmediate(() => {
      if (!this.#blocked || this.#closed || !this.#recordedBlocked()) return;
      // Nothing of the graph is recorded any more: what it was is what the run parks with.
      this.#closed = true;
      this.#parked.abort();
    });
  }

  runResumed(): void {
    if (this.#closed) return;
    this.#blocked = false;
    this.#recorder.runResumed();
  }
}
