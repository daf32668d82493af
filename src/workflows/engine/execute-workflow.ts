// The DAG executor. Deterministic: time comes from the injected clock, waiting from the injected
// timers, approvals from the injected gate keeper and all work from the injected step runners.
//
// Join semantics: a step runs once every predecessor has settled and at least one of them reached it
// (an untaken branch does not); a step no predecessor reached is Skipped, which propagates. Ready
// steps start at once, so independent branches run concurrently. The first failed step fails the
// run: nothing new starts and running steps are aborted. Aborting the run's signal cancels it the
// same way. The outcome is reported only after every started step has settled. A resumed run replays
// its recorded outcomes (`replay`): those steps settle at once without running or being reported.
// Draining (the host stopping gracefully): no step starts any more; once nothing runs (gates may
// wait), the run resolves Interrupted and is resumed elsewhere from its checkpoints.
import type { JsonObject } from '../definition/workflow-definition.js';
import type { Clock } from '../../platform/clock/index.js';
import { awaitGate } from './await-gate.js';
import type { ExecutionObserver } from './execution-observer.js';
import type { GateKeeper } from './gate-keeper.js';
import { RunActivity } from './run-activity.js';
import { STEP_CANCELLED, STEP_STOPPED, STEP_UNEXPECTED } from './step-errors.js';
import type { ApprovalRequest, GateDecision, GraphOutcome, SettledStep, StepContext, StepOutcome, StepRunners } from './step-runner.js';
import type { Timers } from './timers.js';
import { abortReason } from '../../platform/abort/index.js';
import type { GraphStep, WorkflowGraph } from './workflow-graph.js';
import { promiseOf } from '../../platform/promise/index.js';

export interface EngineOptions {
  readonly runners: StepRunners;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly gates: GateKeeper;
  readonly observer: ExecutionObserver;
  /** Told about a runner that threw (a programming error); the step fails with a generic error. */
  readonly onRunnerError?: (step: GraphStep, error: unknown) => void;
  /** A resumed run's checkpoints: a step with a recorded outcome settles with it at once, unreported, instead of running again. */
  readonly replay?: (step: GraphStep) => StepOutcome | undefined;
  /** Aborted when the host drains: start nothing new, resolve Interrupted once nothing runs. */
  readonly draining?: AbortSignal;
}

/** Runs a workflow graph to its outcome; aborting `signal` cancels it. */
export function executeWorkflow(graph: WorkflowGraph, input: JsonObject, signal: AbortSignal, options: EngineOptions): Promise<GraphOutcome> {
  return new GraphExecution(graph, input, signal, options, new RunActivity(options.observer), false).run();
}

class GraphExecution {
  readonly #graph: WorkflowGraph;
  readonly #input: JsonObject;
  readonly #options: EngineOptions;
  readonly #activity: RunActivity;
  /** A child graph hands the activity count back to its sub-plan step when it finishes. */
  readonly #isChild: boolean;
  readonly #outer: AbortSignal;
  readonly #controller = new AbortController();
  readonly #remaining: Int32Array;
  readonly #reached: Uint8Array;
  readonly #settled: Record<string, SettledStep> = Object.create(null) as Record<string, SettledStep>;
  #inFlight = 0;
  /** Steps that became ready while draining and were not started. */
  #held = 0;
  #failure: { readonly step: GraphStep; readonly error: string } | undefined;
  #resolve: (outcome: GraphOutcome) => void = () => undefined;

  constructor(graph: WorkflowGraph, input: JsonObject, signal: AbortSignal, options: EngineOptions, activity: RunActivity, isChild: boolean) {
    this.#graph = graph;
    this.#input = input;
    this.#options = options;
    this.#activity = activity;
    this.#isChild = isChild;
    this.#outer = signal;
    this.#remaining = Int32Array.from(graph.steps, (step) => step.predecessorCount);
    this.#reached = new Uint8Array(graph.steps.length);
  }

  run(): Promise<GraphOutcome> {
    if (this.#outer.aborted) {
      if (this.#isChild) this.#activity.running += 1;
      return Promise.resolve({ status: 'Cancelled' });
    }
    const stop = (): void => this.#controller.abort(abortReason(this.#outer));
    this.#outer.addEventListener('abort', stop, { once: true });
    const draining = this.#isChild ? undefined : this.#options.draining;
    const drain = (): void => {
      this.#activity.beginPass();
      this.#activity.draining = true;
      this.#activity.endPass();
    };
    const outcome = new Promise<GraphOutcome>((resolve) => {
      this.#resolve = (result) => {
        // An interrupted graph still hears its signal: the gates left waiting in it stop when the run does.
        if (result.status !== 'Interrupted') this.#outer.removeEventListener('abort', stop);
        // The drain listener goes with the graph: a signal combined with AbortSignal.any is held alive
        // while it has an abort listener, and with it the whole graph (every step's settled output).
        draining?.removeEventListener('abort', drain);
        resolve(result);
      };
    });
    if (draining !== undefined) {
      this.#activity.onDrained = () => this.#resolve({ status: 'Interrupted' });
      if (draining.aborted) drain();
      else draining.addEventListener('abort', drain, { once: true });
    }
    this.#activity.beginPass();
    this.#launch(this.#graph.entry);
    this.#activity.endPass();
    return outcome;
  }

  /** `at`: when the step starts; a step launched as another settles starts at that step's end (one clock read for both). */
  #launch(index: number, at?: number): void {
    if (this.#activity.draining) {
      this.#held += 1;
      return;
    }
    const step = this.#graph.steps[index]!;
    this.#inFlight += 1;
    this.#activity.running += 1;
    const replayed = this.#options.replay?.(step);
    if (replayed !== undefined) {
      void Promise.resolve().then(() => this.#settle(step, replayed, true));
      return;
    }
    this.#options.observer.stepChanged(step, { status: 'Running', at: at ?? this.#options.clock.now() });
    promiseOf(this.#options.runners[step.type], new StepRun(this, step)).then(
      (outcome) => this.#settle(step, outcome),
      (error: unknown) => this.#settle(step, this.#thrown(step, error)),
    );
  }

  #thrown(step: GraphStep, error: unknown): StepOutcome {
    if (this.#controller.signal.aborted) return { ok: false, error: this.#stopReason() };
    this.#options.onRunnerError?.(step, error);
    return { ok: false, error: STEP_UNEXPECTED };
  }

  /** Why running steps were stopped: a failure here, a failure in an enclosing workflow, or cancellation. */
  #stopReason(): string {
    if (this.#failure !== undefined) return STEP_STOPPED;
    const reason: unknown = this.#outer.reason;
    return reason instanceof Error && reason.message === STEP_STOPPED ? STEP_STOPPED : STEP_CANCELLED;
  }

  #settle(step: GraphStep, outcome: StepOutcome, replayed = false): void {
    this.#activity.beginPass();
    this.#inFlight -= 1;
    this.#activity.running -= 1;
    const at = this.#options.clock.now();
    const { observer } = this.#options;
    if (outcome.ok) {
      this.#settled[step.name] = { status: 'Succeeded', output: outcome.output };
      if (!replayed) {
        // A literal unless there is usage or a branch choice: conditional spreads cost V8's slow path on every step.
        observer.stepChanged(
          step,
          outcome.usage || outcome.take
            ? { status: 'Succeeded', at, output: outcome.output, redacted: outcome.redacted, ...(outcome.usage ? { usage: outcome.usage } : {}), ...(outcome.take ? { take: outcome.take } : {}) }
            : { status: 'Succeeded', at, output: outcome.output, redacted: outcome.redacted },
        );
      }
      if (!this.#controller.signal.aborted) this.#propagate(step, outcome.take, at);
    } else {
      // A step that failed because the run was stopping reports why the run stopped.
      const error = this.#controller.signal.aborted ? this.#stopReason() : outcome.error;
      this.#settled[step.name] = { status: 'Failed', output: outcome.output ?? null };
      observer.stepChanged(step, { status: 'Failed', at, error, ...(outcome.output !== undefined ? { output: outcome.output } : {}) });
      if (this.#failure === undefined && !this.#controller.signal.aborted) {
        this.#failure = { step, error };
        this.#controller.abort(new DOMException(STEP_STOPPED, 'AbortError'));
      }
    }
    // With steps held by a drain the graph is not done: the run resolves Interrupted instead.
    if (this.#inFlight === 0 && this.#held === 0) this.#finish();
    this.#activity.endPass();
  }

  /** Resolves successor edges: taken ones reach their target; a target whose edges are all resolved runs or is skipped. */
  #propagate(from: GraphStep, take: readonly string[] | undefined, at: number): void {
    const steps = this.#graph.steps;
    // Skipped steps whose own successors are resolved next (none on a run that takes every edge: no list is made).
    let skipped: GraphStep[] | undefined;
    let step = from;
    for (;;) {
      const live = step === from;
      for (const successor of step.successors) {
        const target = steps[successor]!;
        if (live && (take === undefined || take.includes(target.name))) this.#reached[successor] = 1;
        this.#remaining[successor] = this.#remaining[successor]! - 1;
        if (this.#remaining[successor] !== 0) continue;
        if (this.#reached[successor] === 1) {
          this.#launch(successor, at);
        } else {
          this.#settled[target.name] = { status: 'Skipped', output: null };
          this.#options.observer.stepChanged(target, { status: 'Skipped', at });
          (skipped ??= []).push(target);
        }
      }
      const next = skipped?.pop();
      if (next === undefined) return;
      step = next;
    }
  }

  #finish(): void {
    if (this.#isChild) this.#activity.running += 1; // the sub-plan step is active again
    if (this.#failure !== undefined) {
      this.#resolve({ status: 'Failed', step: this.#failure.step, error: this.#failure.error });
    } else if (this.#outer.aborted) {
      this.#resolve({ status: 'Cancelled' });
    } else {
      const outputs: Record<string, unknown> = {};
      for (const step of this.#graph.steps) outputs[step.name] = this.#settled[step.name]?.output ?? null;
      this.#resolve({ status: 'Succeeded', outputs });
    }
  }

  get input(): JsonObject {
    return this.#input;
  }

  get settled(): Readonly<Record<string, SettledStep>> {
    return this.#settled;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Runs a sub-plan's graph inside this one (StepContext.runChild). */
  runChild(graph: WorkflowGraph, input: JsonObject): Promise<GraphOutcome> {
    this.#activity.running -= 1; // the child's own steps count from here
    return new GraphExecution(graph, input, this.#controller.signal, this.#options, this.#activity, true).run();
  }

  /** Parks `step` until its approval is decided (StepContext.awaitApproval). */
  async awaitApproval(step: GraphStep, request: ApprovalRequest): Promise<GateDecision> {
    const signal = this.#controller.signal;
    if (signal.aborted) throw abortReason(signal);
    const { clock, timers, gates, observer } = this.#options;
    const gate = await gates.open(step, request);
    if (signal.aborted) throw abortReason(signal);
    const deadline = gate.deadline;
    this.#activity.running -= 1;
    this.#activity.waiting += 1;
    observer.stepChanged(step, { status: 'Waiting', at: clock.now(), approvalId: gate.approvalId });
    this.#activity.check();
    try {
      return await awaitGate(gate, deadline, { clock, timers, signal });
    } finally {
      this.#activity.waiting -= 1;
      this.#activity.running += 1;
      if (!signal.aborted) observer.stepChanged(step, { status: 'Running', at: clock.now() });
      this.#activity.check();
    }
  }
}

/** A running step's context: one object a step (its two calls go back to the execution, not through closures made for each step). */
class StepRun implements StepContext {
  readonly step: GraphStep;
  readonly input: JsonObject;
  readonly steps: Readonly<Record<string, SettledStep>>;
  readonly signal: AbortSignal;
  readonly #execution: GraphExecution;

  constructor(execution: GraphExecution, step: GraphStep) {
    this.step = step;
    this.input = execution.input;
    this.steps = execution.settled;
    this.signal = execution.signal;
    this.#execution = execution;
  }

  awaitApproval(request: ApprovalRequest): Promise<GateDecision> {
    return this.#execution.awaitApproval(this.step, request);
  }

  runChild(graph: WorkflowGraph, input: JsonObject): Promise<GraphOutcome> {
    return this.#execution.runChild(graph, input);
  }
}
