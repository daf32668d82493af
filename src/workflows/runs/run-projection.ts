// What callers see of a run (DESIGN §6 poll body) and of its steps: never the envelope, the owner
// or the input. Step outputs are the redacted copies recorded with each checkpoint.
import type { StepType } from '../definition/workflow-definition.js';
import type { RunStatus, StepStatus } from './run-status.js';
import type { RunView } from './workflow-run-store.js';
import { PENDING_STEP, type WorkflowApproval, type RunStepRef, type StepState } from './workflow-run.js';
import { isoInstant } from '../../platform/clock/index.js';

export type { RunStatus, StepStatus } from './run-status.js';

export interface StepProjection {
  readonly name: string;
  readonly id: string;
  readonly type: StepType;
  readonly status: StepStatus;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly output: unknown;
  readonly error: string | null;
}

export interface PendingApprovalProjection {
  readonly approvalId: string;
  readonly stepName: string;
  readonly message: string;
  readonly createdAt: string;
}

export interface RunProjection {
  readonly jobId: string;
  readonly workflowId: string;
  readonly status: RunStatus;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly error: string | null;
  readonly steps: StepProjection[];
  readonly pendingApprovals: PendingApprovalProjection[];
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : isoInstant(ms);
}

export function projectStep(step: RunStepRef, state: StepState = PENDING_STEP): StepProjection {
  return {
    name: step.name,
    id: step.id,
    type: step.type,
    status: state.status,
    startedAt: isoOrNull(state.startedAt),
    completedAt: isoOrNull(state.completedAt),
    output: state.redacted ?? null,
    error: state.error,
  };
}

export function projectSteps(view: RunView): StepProjection[] {
  return view.record.data.steps.map((step) => projectStep(step, view.steps.get(step.id)));
}

export function projectRun(view: RunView, pending: readonly WorkflowApproval[]): RunProjection {
  const run = view.record.data;
  const steps = projectSteps(view);
  return {
    jobId: run.jobId,
    workflowId: run.workflowId,
    status: statusOf(run.status, steps, pending),
    createdAt: isoInstant(run.createdAt),
    startedAt: isoOrNull(run.startedAt),
    completedAt: isoOrNull(run.completedAt),
    error: run.error,
    steps,
    pendingApprovals: pending.map((approval) => ({
      approvalId: approval.approvalId,
      stepName: approval.stepName,
      message: approval.message,
      createdAt: isoInstant(approval.createdAt),
    })),
  };
}

/**
 * SPEC.md's Blocked: parked on a human approval, nothing else running. A run resumed after a takeover is
 * written Running while it replays its checkpoints up to the gate it waits at; in that window its steps
 * already say so (a step Waiting with its approval pending, none Running), and it is shown Blocked.
 */
function statusOf(status: RunProjection['status'], steps: readonly StepProjection[], pending: readonly WorkflowApproval[]): RunProjection['status'] {
  if (status !== 'Running' || pending.length === 0) return status;
  return steps.some((step) => step.status === 'Waiting') && !steps.some((step) => step.status === 'Running') ? 'Blocked' : status;
}
