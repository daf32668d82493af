// Logging of step outcomes (the engine itself never logs): an info line per failed step with its
// error, and a debug line per succeeded step when debug is on, both read from the engine's reports
// on their way to the recorder, so no step's promise is wrapped for them (a wrapper cost every step
// of every run a promise and three closures). A runner that throws is logged where the engine
// reports it (the executor's onRunnerError), once.
import type { Logger } from '../../platform/log/index.js';
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';

export class LogStepOutcomes implements ExecutionObserver {
  readonly #inner: ExecutionObserver;
  readonly #logger: Logger;
  readonly #run: { readonly jobId: string; readonly workflowId: string };
  /** Whether debug lines are written, asked once a run (not on every step). */
  readonly #debug: boolean;

  constructor(inner: ExecutionObserver, logger: Logger, run: { readonly jobId: string; readonly workflowId: string }) {
    this.#inner = inner;
    this.#logger = logger;
    this.#run = run;
    this.#debug = logger.isLevelEnabled('debug');
  }

  stepChanged(step: GraphStep, change: StepChange): void {
    if (change.status === 'Failed') this.#logger.info({ ...this.#fields(step), error: change.error }, 'workflow step failed');
    else if (change.status === 'Succeeded' && this.#debug) this.#logger.debug(this.#fields(step), 'workflow step succeeded');
    this.#inner.stepChanged(step, change);
  }

  runBlocked(): void {
    this.#inner.runBlocked();
  }

  runResumed(): void {
    this.#inner.runResumed();
  }

  #fields(step: GraphStep): { jobId: string; workflowId: string; step: string; type: string } {
    return { jobId: this.#run.jobId, workflowId: this.#run.workflowId, step: step.path, type: step.type };
  }
}
