// Counts what a run is doing across its workflow and every nested sub-plan: steps actively running
// and gates waiting. The run is blocked exactly when nothing runs and a gate waits; transitions are
// reported once, at the end of each synchronous scheduling pass (a pass may open a gate before it
// starts the sibling that keeps the run busy), so no spurious park is ever seen. While draining, the
// run is drained once nothing runs: `onDrained` is told once.
import type { ExecutionObserver } from './execution-observer.js';

export class RunActivity {
  running = 0;
  waiting = 0;
  /** Set when the host drains: no step starts any more. */
  draining = false;
  onDrained: (() => void) | null = null;
  #blocked = false;
  #passDepth = 0;
  readonly #observer: ExecutionObserver;

  constructor(observer: ExecutionObserver) {
    this.#observer = observer;
  }

  /** Starts a scheduling pass; checks inside it wait for its end. Passes nest. */
  beginPass(): void {
    this.#passDepth += 1;
  }

  endPass(): void {
    this.#passDepth -= 1;
    this.check();
  }

  check(): void {
    if (this.#passDepth > 0) return;
    if (this.draining && this.running === 0 && this.onDrained !== null) {
      const drained = this.onDrained;
      this.onDrained = null;
      drained();
      return;
    }
    const blocked = this.running === 0 && this.waiting > 0;
    if (blocked === this.#blocked) return;
    this.#blocked = blocked;
    if (blocked) this.#observer.runBlocked();
    else this.#observer.runResumed();
  }
}
