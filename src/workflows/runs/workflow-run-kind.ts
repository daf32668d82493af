// Workflow runs as the run engine knows them: records in the `workflow-run` collection, live while
// Queued, Running or Blocked, dispatched Workflows:MaxConcurrentRuns at a time per instance (a Blocked
// run gives its slot back while a person decides). A run begins Running; a Blocked run resumed after a
// takeover stays Blocked while it re-opens its gate (the recorder writes nothing of that), so a poll
// never sees it Running unless its gate was answered. It always resumes from its checkpoints when its
// instance died (at-least-once for the step that was running), and ends as settle writes it: the
// pending approvals withdrawn, then the final status with its FINISHED event (and the expiry of a plan
// kept as a record by an earlier build; decision 2810), then its approvals expiring with it.
import type { Approvals } from '../../approvals/index.js';
import type { Clock } from '../../platform/clock/index.js';
import type { Logger } from '../../platform/log/index.js';
import type { RunEnding, RunKind, SettlingRun } from '../../runs/index.js';
import { STEP_CANCELLED } from '../engine/step-errors.js';
import { withdrawPending } from './approval-desk.js';
import type { FinalStatus } from './run-status.js';
import type { WorkflowOutcome, WorkflowRunExecutor } from './workflow-run-executor.js';
import { LIVE_STATES, RUN_COLLECTION, type WorkflowRunStore } from './workflow-run-store.js';
import type { WorkflowApproval, RunEvent, WorkflowRunData } from './workflow-run.js';
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
}): RunKind<WorkflowRunData, WorkflowOutcome> {
  const { runs, logger } = options;
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
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
      const final: WorkflowRunData = { ...data, status, error, completedAt: run.now, parkedSeq: null, withdrawnApprovals: withdrawn };
      const event: RunEvent = { type: 'FINISHED', status, ...(error !== null ? { error } : {}) };
      const outbox = await options.events.entriesFor(workflowRunEvent('workflow.run.finished', run.key.ownerId, final, status), run.now);
      // A completed graph: its last checkpoints (its last step's end, usually) are written with the end.
      const graph = ending.type === 'completed' && ending.outcome.type === 'graph' ? ending.outcome : undefined;
      const tail = graph?.tail;
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
