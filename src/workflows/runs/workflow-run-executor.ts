// Executes one workflow run on this instance, from its start or from its checkpoints after a takeover:
// Queued → Running (compare-and-set under this instance's lease), the graph rebuilt from the stored
// plan, steps already Succeeded replayed (never run again), the rest run through the deterministic
// engine with checkpoints recorded as they happen; then FINISHED with the final status, the pending
// approvals withdrawn. A run whose lease another instance took writes nothing more; on a durable
// storage a host that is stopping leaves the run as it is for another instance to take over.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { Logger } from '../../platform/log/index.js';
import { leaseLost, stopCause, type LiveRun } from '../../runs/index.js';
import { buildGraph } from '../engine/build-graph.js';
import { executeWorkflow } from '../engine/execute-workflow.js';
import { STEP_CANCELLED } from '../engine/step-errors.js';
import type { GraphOutcome, StepOutcome } from '../engine/step-runner.js';
import type { Timers } from '../engine/timers.js';
import { createStepRunners, type StepRunnerDependencies } from '../steps/create-step-runners.js';
import { ApprovalDesk } from './approval-desk.js';
import { logStepRunners } from './log-step-runners.js';
import { traceStepRunners } from './trace-step-runners.js';
import { RunRecorder } from './run-recorder.js';
import { isFinal, type FinalStatus } from './run-status.js';
import { LIVE_STATES, type RunStore } from './run-store.js';
import type { RunEvent, StepState, WorkflowRunData } from './workflow-run.js';

export const RUN_CANCELLED = STEP_CANCELLED;
export const RUN_UNHANDLED = 'workflow_run.unhandled_exception';
export const APPROVAL_MESSAGE = 'approval';

export interface RunExecutorDependencies {
  readonly runs: RunStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly steps: StepRunnerDependencies;
  readonly logger: Logger;
  /** Whether the storage outlives this process (a stopping host then leaves runs for a takeover). */
  readonly durable: boolean;
}

export class RunExecutor {
  readonly #d: RunExecutorDependencies;

  constructor(deps: RunExecutorDependencies) {
    this.#d = deps;
  }

  async execute(live: LiveRun): Promise<void> {
    const { runs, clock, logger } = this.#d;
    const owner = { ownerId: live.key.ownerId };
    const jobId = live.key.id;
    let record = await runs.record(owner, jobId);
    if (record === undefined || isFinal(record.data.status)) return;
    const plan = await runs.plan(owner, jobId);
    if (plan === undefined || record.data.cancelRequested) {
      await this.finish(live.key, record.data, record.data.cancelRequested ? 'Cancelled' : 'Failed', record.data.cancelRequested ? RUN_CANCELLED : RUN_UNHANDLED, live.holder, null);
      return;
    }
    if (record.data.status === 'Queued') {
      const started: WorkflowRunData = { ...record.data, status: 'Running', startedAt: clock.now() };
      const committed = await runs.commit(live.key, {
        record: { patch: { state: 'Running', data: started }, guard: { states: ['Queued'], leaseHolder: live.holder } },
      });
      if (!committed.committed) return;
      record = (await runs.record(owner, jobId)) ?? record;
    } else if (record.data.status === 'Blocked') {
      // Resumed after a takeover: Running until the gate it waits on is reached again.
      await runs.commit(live.key, {
        record: { patch: { state: 'Running', data: { ...record.data, status: 'Running', parkedSeq: null } }, guard: { leaseHolder: live.holder } },
      });
      record = (await runs.record(owner, jobId)) ?? record;
    }
    const data = record.data;
    const steps = await runs.steps(live.key);
    const desk = new ApprovalDesk({ runs, owner, run: data, ids: this.#d.ids, clock, existing: await runs.approvals(owner, jobId) });
    live.onMessage((message) => {
      if (message === APPROVAL_MESSAGE) void desk.refresh().catch((err: unknown) => logger.warn({ err, jobId }, 'reading a decided approval failed'));
    });
    const lost = new AbortController();
    const signal = AbortSignal.any([live.signal, lost.signal]);
    const recorder = new RunRecorder({
      runs,
      key: live.key,
      holder: live.holder,
      desk,
      slot: live.slot,
      data,
      lastSeq: await this.#lastSeq(live.key),
      steps,
      onLost: () => lost.abort(leaseLost()),
      onError: (err) => logger.error({ err, jobId }, 'recording a workflow checkpoint failed'),
    });
    let outcome: GraphOutcome | undefined;
    try {
      outcome = await executeWorkflow(buildGraph(plan.workflow, new Map(plan.subPlans.map((w) => [w.id, w]))), data.input, signal, {
        runners: traceStepRunners(logStepRunners(createStepRunners(this.#d.steps, data), logger, data), this.#d.steps.tracing, data),
        clock,
        timers: this.#d.timers,
        gates: desk,
        observer: recorder,
        replay: (step) => replayed(steps.get(step.id)),
        onRunnerError: (step, error) => logger.error({ jobId, step: step.path, err: error }, 'workflow step runner threw'),
      });
    } catch (error) {
      logger.error({ jobId, err: error }, 'workflow run failed unexpectedly');
    }
    await recorder.drain();
    const cause = stopCause(signal);
    if (cause === 'lease-lost') return;
    if (cause === 'host-stopping' && this.#d.durable) return;
    const current = recorder.data;
    if (outcome === undefined) await this.finish(live.key, current, 'Failed', RUN_UNHANDLED, live.holder, desk);
    else if (outcome.status === 'Succeeded') await this.finish(live.key, current, 'Succeeded', null, live.holder, desk);
    else if (outcome.status === 'Cancelled') await this.finish(live.key, current, 'Cancelled', RUN_CANCELLED, live.holder, desk);
    else await this.finish(live.key, current, 'Failed', `The step '${outcome.step.path}' failed: ${outcome.error}`, live.holder, desk);
  }

  /**
   * Final bookkeeping, in order: approvals withdrawn (after the stop), then the final status with its
   * FINISHED event, fenced by `holder`'s lease (null: the run must still be live, e.g. a Queued cancel).
   * False when the run was already final or another instance owns it.
   */
  async finish(
    key: LiveRun['key'],
    run: WorkflowRunData,
    status: FinalStatus,
    error: string | null,
    holder: string | null,
    desk: ApprovalDesk | null,
  ): Promise<boolean> {
    const { runs, clock, logger } = this.#d;
    const withdrawn = desk === null ? 0 : await desk.withdrawPending();
    const now = clock.now();
    const final: WorkflowRunData = { ...run, status, error, completedAt: now, parkedSeq: null, withdrawnApprovals: withdrawn };
    const event: RunEvent = { type: 'FINISHED', status, ...(error !== null ? { error } : {}) };
    const patch = runs.finalPatch(final, now);
    const guard = holder === null ? { states: LIVE_STATES } : { states: LIVE_STATES, leaseHolder: holder };
    const committed = await runs.commit(key, { events: [event], record: { patch, guard } });
    if (!committed.committed) return false;
    await runs.expireWith(final, now);
    logger.info({ jobId: run.jobId, workflowId: run.workflowId, status, withdrawnApprovals: withdrawn, usage: run.usage }, 'workflow run finished');
    return true;
  }

  async #lastSeq(key: LiveRun['key']): Promise<number> {
    return this.#d.runs.lastSeq(key);
  }
}

function replayed(state: StepState | undefined): StepOutcome | undefined {
  if (state?.status !== 'Succeeded') return undefined;
  return { ok: true, output: state.output, ...(state.take ? { take: state.take } : {}), ...(state.usage ? { usage: state.usage } : {}) };
}
