// The events a state change of an owner's resource may cause (DESIGN.md §14), as the families report
// them: the closed list of names a webhook may subscribe to, and what an event says — ids named as in
// poll bodies, the status, an eval's verdict and the relative status URL, never prompts, outputs,
// arguments or tokens.

export const RESOURCE_EVENT_TYPES = [
  'bundle.run.finished',
  'bundle.run.awaiting_approval',
  'workflow.run.blocked',
  'workflow.run.finished',
  'eval.run.finished',
  'approval.requested',
  'approval.decided',
  'approval.expired',
  'schedule.fired',
  'schedule.failed',
  'spend.threshold',
] as const;

export type ResourceEventType = (typeof RESOURCE_EVENT_TYPES)[number];

export interface ResourceEventData {
  readonly jobId?: string;
  readonly workflowId?: string;
  readonly handle?: string;
  readonly approvalId?: string;
  readonly scheduleId?: string;
  /** spend.threshold: which limit (`day` or `month`). */
  readonly period?: 'day' | 'month';
  readonly status: string;
  readonly verdict?: string;
  /** The resource's relative status URL (`/api/…`). */
  readonly url: string;
}

export interface ResourceEvent {
  readonly type: ResourceEventType;
  /** Whose resource changed: only that owner's subscriptions hear it. */
  readonly ownerId: string;
  readonly data: ResourceEventData;
}
