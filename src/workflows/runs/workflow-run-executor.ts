// Executes one workflow run on this instance, from its start or from its checkpoints after a takeover:
// the graph rebuilt from the stored plan, steps already Succeeded replayed (never run again), the rest
// run through the deterministic engine with every checkpoint recorded through the live run (fenced by
// the run engine). Returns the graph's outcome with the run as last recorded; how the run ends is
// written by its run kind's settle (workflow-run-kind.ts). When the host drains it finishes the steps
// in flight, starts none, and returns INTERRUPTED: another instance resumes it from there. When it
// waits for a person — nothing running, a gate waiting — it stops executing the same way and returns
// RunWaits: the engine parks it (Blocked, no lease, no slot) until a decision wakes it, and it then
// executes again from its checkpoints, its gates re-opened on their approvals (decision 3701).
import type { Approvals } from '../../approvals/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { Logger } from '../../platform/log/index.js';
import { INTERRUPTED, RunWaits, type Interrupted, type LiveRun } from '../../runs/index.js';
import { graphOf } from '../engine/build-graph.js';
import { executeWorkflow } from '../engine/execute-workflow.js';
import type { GraphOutcome, StepOutcome } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { Timers } from '../engine/timers.js';
import { createStepRunners, type StepRunnerDependencies } from '../steps/create-step-runners.js';
import { ApprovalDesk } from './approval-desk.js';
import { LogStepOutcomes } from './log-step-outcomes.js';
import { ParkWhenBlocked } from './park-when-blocked.js';
import { traceStepRunners } from './trace-step-runners.js';
import { RunRecorder } from './run-recorder.js';
import { workflowRunEvent } from './workflow-run-event.js';
import type { EventOutbox } from '../../platform/outbox/index.js';
import type { WorkflowRunStore } from './workflow-run-store.js';
import type { WorkflowApproval, StepState, WorkflowRunData } from './workflow-run.js';
import type { RecordedTail } from './run-recorder.js';

/** What an execution came to: the graph's outcome (or no plan to run), the run as recorded, its open approvals. */
export type WorkflowOutcome =
  | {
      readonly type: 'graph';
      readonly graph: Exclude<GraphOutcome, { status: 'Interrupted' }>;
      readonly data: WorkflowRunData;
      readonly pending: readonly WorkflowApproval[];
      /** True when the run is known to have no approval at all (it began here from Queued and opened none). */
      readonly noApprovals: boolean;
      /** Checkpoints not committed yet: the final commit writes them with the run's end. */
      readonly tail: RecordedTail;
      /** Every step's state once the tail is committed (what a read of the run's items would give). */
      readonly steps: ReadonlyMap<string, StepState>;
      /** The plan is a record of its own (a run admitted before decision 2810): the final commit expires it. */
      readonly planRecord: boolean;
    }
  | { readonly type: 'cancel-requested' }
  | { readonly type: 'no-plan' };

export interface WorkflowRunExecutorDependencies {
  readonly runs: WorkflowRunStore;
  readonly clock: Clock;
  readonly approvals: Approvals;
  readonly events: EventOutbox;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly steps: StepRunnerDependencies;
  readonly logger: Logger;
}

export class WorkflowRunExecutor {
  readonly #deps: WorkflowRunExecutorDependencies;

  constructor(deps: WorkflowRunExecutorDependencies) {
    this.#deps = deps;
  }

  async execute(live: LiveRun<WorkflowRunData>): Promise<WorkflowOutcome | Interrupted | RunWaits<WorkflowRunData>> {
    const { runs, clock, logger } = this.#deps;
    const owner = { ownerId: live.key.ownerId };
    const jobId = live.key.id;
    const data = live.record.data;
    // A cancel recorded while no instance ran it (or before a takeover) ends it without running a step.
    if (data.cancelRequested) return { type: 'cancel-requested' };
    // A run that never executed anywhere has no step states, events or approvals yet: nothing to read.
    const fresh = live.begunFrom === 'Queued';
    // A resumed run's items, read once: its step states and (unless admitted here) its plan.
    const items = fresh ? undefined : await runs.itemsOf(live.key);
    const found = await runs.plan(owner, jobId, items);
    if (found === undefined) return { type: 'no-plan' };
    const { plan } = found;
    const steps = items?.steps ?? new Map<string, StepState>();
    const existing = fresh ? [] : await runs.approvals(owner, jobId);
    const desk = new ApprovalDesk({ approvals: this.#deps.approvals, owner, run: data, ids: this.#deps.ids, clock, existing, owned: (write) => live.whileOwned(write) });
    // A decision heard while it executes (sent by an instance of a build before decision 3701, which
    // told the executing instance instead of waking a parked run): its waiting steps are released here.
    live.onMessage((message) => {
      if (message.type === 'approval-decided') void desk.refresh().catch((err: unknown) => logger.warn({ err, jobId }, 'reading a decided approval failed'));
    });
    const recorder = new RunRecorder({
      live,
      desk,
      data,
      lastSeq: fresh ? 0 : await runs.lastSeq(live.key),
      steps,
      blocked: (run) => this.#deps.events.entriesFor(workflowRunEvent('workflow.run.blocked', owner.ownerId, run, 'Blocked'), clock.now()),
      onError: (err) => logger.error({ err, jobId }, 'recording a workflow checkpoint failed'),
    });
    const parker = new ParkWhenBlocked(recorder, () => recorder.data.status === 'Blocked');
    // Tears down the graph of a run that parks: its gates stop waiting here.
    const teardown = new AbortController();
    let graph: GraphOutcome | undefined;
    try {
      graph = await executeWorkflow(graphOf(plan.workflow, new Map(plan.subPlans.map((w) => [w.id, w]))), data.input, AbortSignal.any([live.signal, teardown.signal]), {
        runners: traceStepRunners(createStepRunners(this.#deps.steps, data), this.#deps.steps.tracing, data),
        clock,
        timers: this.#deps.timers,
        gates: desk,
        observer: new LogStepOutcomes(parker, logger, data),
        // A run with no stored step state has nothing to replay (a step is recorded only once it launched).
        ...(steps.size === 0 ? {} : { replay: (step: GraphStep) => replayed(steps.get(step.id)) }),
        onRunnerError: (step, error) => logger.error({ jobId, step: step.path, err: error }, 'workflow step runner threw'),
        // Parking stops the graph as a drain does: nothing runs, only gates wait.
        draining: AbortSignal.any([live.draining, parker.parked]),
      });
    } finally {
      // A parked run's gates stop waiting here before anything else can happen to them (a deadline timer).
      if (parker.parked.aborted) teardown.abort(new DOMException('The run parked.', 'AbortError'));
      // A run that threw or was interrupted: every checkpoint reported so far goes out now.
      if (graph === undefined || graph.status === 'Interrupted') await recorder.drain();
    }
    if (graph.status === 'Interrupted') {
      const pending = desk.pending();
      // Handed over (the host drains), or — rarely — nothing is left to wait on: another instance resumes it.
      if (live.draining.aborted || !parker.parked.aborted || pending.length === 0) return INTERRUPTED;
      return waitsFor(recorder.data, pending);
    }
    // A completed graph: what is not committed yet goes out with the run's end, in its final commit.
    const tail = await recorder.finish();
    return { type: 'graph', graph, data: recorder.data, pending: desk.pending(), noApprovals: fresh && desk.known === 0, tail, steps, planRecord: found.record };
  }
}

/** What a run that parked waits on: its pending approvals (the first to expire names it), as its parked record keeps them. */
function waitsFor(data: WorkflowRunData, pending: readonly WorkflowApproval[]): RunWaits<WorkflowRunData> {
  let first = pending[0]!;
  for (const approval of pending) if (approval.deadline !== null && (first.deadline === null || approval.deadline < first.deadline)) first = approval;
  return new RunWaits(first.approvalId, { ...data, awaiting: pending.map((approval) => approval.approvalId) }, first.deadline);
}

function replayed(state: StepState | undefined): StepOutcome | undefined {
  if (state?.status !== 'Succeeded') return undefined;
  return { ok: true, output: state.output, ...(state.take ? { take: state.take } : {}), ...(state.usage ? { usage: state.usage } : {}) };
}
