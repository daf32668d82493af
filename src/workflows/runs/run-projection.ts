// What callers see of a run (DESIGN §6 poll body) and of its steps: never the envelope, the owner
// or the input. Step outputs are redacted on the way out (memoised per step).
import { redactValue } from '../../platform/redaction/index.js';
import type { StepType } from '../definition/workflow-definition.js';
import type { RunStatus, StepStatus } from './run-status.js';
import type { RunStepRecord, WorkflowRun } from './workflow-run.js';

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
  return ms === null ? null : new Date(ms).toISOString();
}

export function redactedOutput(step: RunStepRecord): unknown {
  if (step.output === null || step.output === undefined) return null;
  if (!('redactedOutput' in step)) step.redactedOutput = redactValue(step.output);
  return step.redactedOutput;
}

export function projectStep(step: RunStepRecord): StepProjection {
  return {
    name: step.name,
    id: step.id,
    type: step.type,
    status: step.status,
    startedAt: isoOrNull(step.startedAt),
    completedAt: isoOrNull(step.completedAt),
    output: redactedOutput(step),
    error: step.error,
  };
}

export function projectRun(run: WorkflowRun): RunProjection {
  return {
    jobId: run.jobId,
    workflowId: run.workflowId,
    status: run.status,
    createdAt: new Date(run.createdAt).toISOString(),
    startedAt: isoOrNull(run.startedAt),
    completedAt: isoOrNull(run.completedAt),
    error: run.error,
    steps: run.steps.map(projectStep),
    pendingApprovals: run.approvals
      .filter((approval) => approval.state === 'Pending' && !run.cancelRequested)
      .map((approval) => ({
        approvalId: approval.approvalId,
        stepName: approval.stepName,
        message: approval.message,
        createdAt: new Date(approval.createdAt).toISOString(),
      })),
  };
}
