// A workflow run as the storage keeps it, all plain data: the run record (who started it and under
// which envelope — never projected —, status, timestamps, the expanded step list), one item per step
// with its state and output (each a checkpoint: a step that Succeeded is never run again, even after a
// takeover), its approvals (src/approvals), and the plan (the workflow and the sub-plans snapshotted at start,
// kept apart because only an executing instance reads it). Live objects never go in.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { JsonObject, StepType, StoredWorkflow } from '../definition/workflow-definition.js';
import type { StepUsage } from '../engine/step-runner.js';
import type { RunStatus, StepStatus } from './run-status.js';

export interface RunStepRef {
  readonly id: string;
  /** Path in the run (child steps prefixed with their sub-plan step's). */
  readonly name: string;
  readonly type: StepType;
}

export interface WorkflowRunData {
  readonly jobId: string;
  readonly workflowId: string;
  readonly ownerId: string;
  /** Captured from the starting caller at start-run; applies for the whole run. Never projected. */
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly input: JsonObject;
  /** The whole expansion (sub-plan steps followed by their children), in definition order. */
  readonly steps: readonly RunStepRef[];
  readonly createdAt: number;
  readonly status: RunStatus;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  readonly error: string | null;
  readonly cancelRequested: boolean;
  readonly usage: StepUsage;
  /** Sequence of the PARKED event while Blocked (re-sent to watchers that attach), else null. */
  readonly parkedSeq: number | null;
  /** How many pending approvals were withdrawn when the run stopped; null while live. */
  readonly withdrawnApprovals: number | null;
  /** The starter's name or preferred_username claim (approvals say who asked); absent on older runs. */
  readonly requestedBy?: string | null;  /** Set while the run is parked out of memory (Blocked, no lease): the approvals it waits on; a decision on one wakes it. */
  readonly awaiting?: readonly string[];
}

/** One step's state: the run's checkpoint for that step. */
export interface StepState {
  readonly status: StepStatus;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  /** Raw output as the step produced it (what later steps' templates read). */
  readonly output: unknown;
  /** The output as callers see it (redacted once, when it was recorded). */
  readonly redacted: unknown;
  readonly error: string | null;
  readonly usage: StepUsage | null;
  /** ConditionalBranch: the successors it took. */
  readonly take?: readonly string[];
}

export const PENDING_STEP: StepState = Object.freeze({
  status: 'Pending',
  startedAt: null,
  completedAt: null,
  output: null,
  redacted: null,
  error: null,
  usage: null,
});

export type { WorkflowApproval, ApprovalState } from '../../approvals/index.js';

/** What an executing instance needs to rebuild the graph anywhere, whatever was deleted since. */
export interface RunPlan {
  readonly workflow: StoredWorkflow;
  readonly subPlans: readonly StoredWorkflow[];
}

/** The events of a run's journal: the stream frames without their sequence (the journal numbers them). */
export type RunEvent =
  | { readonly type: 'STEP'; readonly stepName: string; readonly stepId: string; readonly status: StepStatus; readonly output?: unknown; readonly error?: string }
  | { readonly type: 'FINISHED'; readonly status: RunStatus; readonly error?: string }
  | { readonly type: 'PARKED'; readonly approvalId: string; readonly stepName: string };
