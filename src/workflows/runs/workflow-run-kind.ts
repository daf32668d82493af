// Workflow runs as the run engine knows them: records in the `workflow-run` collection, live while
// Queued, Running or Blocked, dispatched Workflows:MaxConcurrentRuns at a time per instance. A run
// begins Running. One waiting for a person is parked by the engine (decision 3701): Blocked with no
// lease and no slot, the approvals it waits on kept (`awaiting`); a decision on one of them wakes it
// Blocked under the deciding instance's lease, and it executes again from its checkpoints, re-opening
// its gates — the recorder writes nothing of that — so a poll never sees it Running unless a gate was
// answered (the same as a Blocked run taken over after its instance died). It always resumes from its
// checkpoints when its instance died (at-least-once for the step that was running), and ends as
// settle writes it: the pending approvals withdrawn, then the final status with its FINISHED event
// (and the expiry of a plan kept as a record by an earlier build; decision 2810), then its approvals
// expiring with it.
import { decisionOf, isWorkflowApproval, type Approvals } from '../../approvals/index.js';
import type { Clock } from '../../platform/clock/index.js';
import type { Logger } from '../../platform/log/index.js';
import type { RunEnding, RunKind, RunWaiting, SettlingRun } from '../../runs/index.js';
import { STEP_CANCELLED } from '../engine/step-errors.js';
import { withdrawPending } from './approval-desk.js';
import type { FinalStatus } from './run-status.js';
import type { WorkflowOutcome, WorkflowRunExecutor } from './workflow-run-executor.js';
import { LIVE_STATES, RUN_COLLECTION, type WorkflowRunStore } from './workflow-run-store.js';
import type { WorkflowApproval, RunEvent, StepState, WorkflowRunData } from './workflow-run.js';
import type { RecordedTail } from './run-recorder.js';
import { workflowRunEvent } from './workflow-run-event.js';
import type { EventOutbox } from '../../platform/outbox/index.js';

export const RUN_CANCELLED = STEP_CANCELLED;
export const RUN_UNHANDLED = 'workflow_run.unhandled_exception';

export function workflowRunKind(options: {
  readonly runs: WorkflowRunStore;
  readonly approvals: Approvals;
  readonly events: EventOutbox;
  readonly executor: WorkflowRunExecutor;
  readonly maxConcurrent: number;
  readonly clock: Clock;
  readonly logger: Logger;
}): RunKind<WorkflowRunData, WorkflowOutcome, WorkflowRunData> {
  const { runs, logger } = options;
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    waiting: parkedOnApprovals(options.approvals),
    lane: { maxConcurrent: options.maxConcurrent },
    begin: (record, now) => {
      const data = record.data;
      if (data.status === 'Queued') return { state: 'Running', data: { ...data, status: 'Running', startedAt: now } };
      // Blocked (taken over, or resumed after a restart) begins as stored: it is still parked on its gate.
      return null;
    },
    resumes: () => true,
    execute: (run) => options.executor.execute(run),
    settle: async (run, ending) => {
      const { status, error, data, pending, noApprovals } = finalOf(run, ending);
      const withdrawn = noApprovals ? 0 : await withdrawPending(options.approvals, run.key, pending ?? (await runs.approvals(run.key, run.key.id)));
      const { awaiting: _awaiting, ...ended } = data;
      const final: WorkflowRunData = { ...ended, status, error, completedAt: run.now, parkedSeq: null, withdrawnApprovals: withdrawn };
      const event: RunEvent = { type: 'FINISHED', status, ...(error !== null ? { error } : {}) };
      const outbox = await options.events.entriesFor(workflowRunEvent('workflow.run.finished', run.key.ownerId, final, status), run.now);
      // A completed graph: its last checkpoints (its last step's end, usually) are written with the end.
      const graph = ending.type === 'completed' && ending.outcome.type === 'graph' ? ending.outcome : undefined;
      // A parked run stopped (cancelled): the steps it waited in fail as they would have in memory.
      const tail = graph?.tail ?? (ending.type === 'stopped' && data.awaiting !== undefined ? await strandedSteps(runs, run, error ?? RUN_CANCELLED) : undefined);
      const committed = await run.commit({
        ...(tail === undefined || tail.items.length === 0 ? {} : { items: tail.items }),
        events: tail === undefined ? [event] : [...tail.events, event],
        record: { patch: runs.finalPatch(final, run.now) },
        outbox,
        // A plan kept as a record (an earlier build's run; unknown when it did not complete) expires with it, in the same commit.
        ...(graph !== undefined && !graph.planRecord ? {} : { expire: runs.endsWith(final, run.now) }),
      });
      if (!committed.committed) return null;
      // A completed graph's steps are all known here: its polls on this instance need no read.
      if (graph !== undefined && committed.record !== undefined) runs.remember(committed.record, graph.steps);
      if (!noApprovals) await runs.expireApprovals(final, run.now);
      logger.info({ jobId: final.jobId, workflowId: final.workflowId, status, withdrawnApprovals: withdrawn, usage: final.usage }, 'workflow run finished');
      return status;
    },
  };
}

/** How a workflow run waits out of memory: Blocked, woken Blocked, on any of the approvals it was parked with. */
function parkedOnApprovals(approvals: Approvals): RunWaiting<WorkflowRunData, WorkflowRunData> {
  return {
    state: 'Blocked',
    wokenState: 'Blocked',
    // The recorder committed Blocked and its PARKED event before the graph stopped: the park adds what it waits on.
    park: async (_run, waits) => ({ data: waits.checkpoint, events: [] }),
    resume: (record, decision) => {
      const { awaiting, ...data } = record.data;
      return awaiting?.includes(decision.approvalId) === true ? data : null;
    },
    decided: async (record) => {
      for (const approvalId of record.data.awaiting ?? []) {
        const approval = await approvals.store.get({ ownerId: record.ownerId }, approvalId);
        const decision = approval !== undefined && isWorkflowApproval(approval) ? decisionOf(approval) : undefined;
        if (decision !== undefined) return decision;
      }
      return undefined;
    },
    expire: (key, approvalId) => approvals.expireOverdue(key.ownerId, approvalId),
  };
}

/** The steps a parked run still waited in (a gate, and the sub-plan steps around it), failed with `error`, innermost first. */
async function strandedSteps(runs: WorkflowRunStore, run: SettlingRun<WorkflowRunData>, error: string): Promise<RecordedTail> {
  const { steps } = await runs.itemsOf(run.key);
  const items: { key: string; data: StepState }[] = [];
  const events: RunEvent[] = [];
  for (const ref of [...run.record.data.steps].reverse()) {
    const state = steps.get(ref.id);
    if (state?.status !== 'Waiting' && state?.status !== 'Running') continue;
    const failed: StepState = { ...state, status: 'Failed', completedAt: run.now, output: null, redacted: null, error };
    items.push({ key: ref.id, data: failed });
    events.push({ type: 'STEP', stepName: ref.name, stepId: ref.id, status: 'Failed', error });
  }
  return { items, events };
}

interface Final {
  readonly status: FinalStatus;
  readonly error: string | null;
  readonly data: WorkflowRunData;
  /** Known open approvals (undefined: read them). */
  readonly pending?: readonly WorkflowApproval[];
  /** Known to have no approval at all: nothing to withdraw or expire. */
  readonly noApprovals?: boolean;
}

/** How an ending reads as a workflow run's final status (a host stopping alone counts as a cancel, as SPEC.md's table has it). */
function finalOf(run: SettlingRun<WorkflowRunData>, ending: RunEnding<WorkflowOutcome>): Final {
  const data = run.record.data;
  switch (ending.type) {
    case 'completed': {
      const outcome = ending.outcome;
      if (outcome.type === 'cancel-requested') return { status: 'Cancelled', error: RUN_CANCELLED, data };
      if (outcome.type === 'no-plan') return { status: 'Failed', error: RUN_UNHANDLED, data };
      const { graph, pending, noApprovals } = outcome;
      if (graph.status === 'Succeeded') return { status: 'Succeeded', error: null, data: outcome.data, pending, noApprovals };
      if (graph.status === 'Cancelled') return { status: 'Cancelled', error: RUN_CANCELLED, data: outcome.data, pending, noApprovals };
      return { status: 'Failed', error: `The step '${graph.step.path}' failed: ${graph.error}`, data: outcome.data, pending, noApprovals };
    }
    case 'stopped':
      return { status: 'Cancelled', error: RUN_CANCELLED, data: { ...data, cancelRequested: data.cancelRequested || ending.stopped.cause === 'cancelled' } };
    case 'crashed':
    case 'abandoned':
      return { status: 'Failed', error: RUN_UNHANDLED, data };
  }
}
