// The approval resource (DESIGN.md §13): one shape for gates and tool calls, built from the stored
// approval (each variant contributes its own fields). Approvals stored before §13 read as workflow
// gates routed to nobody (the store's `fromStored`).
import { isoInstant } from '../platform/clock/index.js';
import type { ApprovalData, ApprovalState } from './approval-record.js';

export type ApprovalStatus = 'Pending' | 'Approved' | 'Rejected' | 'Expired' | 'Withdrawn';

export interface ApprovalResource {
  readonly approvalId: string;
  readonly kind: 'HumanGate' | 'ToolCall';
  readonly status: ApprovalStatus;
  readonly runKind: 'bundle' | 'workflow';
  readonly jobId: string;
  readonly workflowId?: string;
  readonly handle?: string;
  readonly stepName?: string;
  readonly message?: string;
  readonly tool?: string;
  readonly operation?: string;
  readonly arguments?: string | null;
  readonly riskTier?: string;
  readonly reason: string;
  readonly policyVersion?: string;
  readonly responseSchema?: Readonly<Record<string, unknown>>;
  readonly requestedBy: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly escalated: boolean;
  readonly decision?: {
    readonly decision: 'Approve' | 'Reject';
    readonly comment?: string;
    readonly payload?: unknown;
    readonly decidedBy: string;
    readonly decidedAt: string;
  };
}

export function statusOf(state: ApprovalState): ApprovalStatus {
  return state === 'TimedOut' ? 'Expired' : state;
}

/** The states a status filter means. */
export function statesOf(status: ApprovalStatus): ApprovalState[] {
  return [status === 'Expired' ? 'TimedOut' : status];
}

export function toApprovalResource(approval: ApprovalData, now: number): ApprovalResource {
  const { runKind, kind } = approval;
  const call = approval.kind === 'ToolCall' ? approval : undefined;
  // A Pending approval whose deadline passed is expired, whoever has yet to write it.
  const state = approval.state === 'Pending' && approval.deadline !== null && approval.deadline <= now ? 'TimedOut' : approval.state;
  const decided =
    (state === 'Approved' || state === 'Rejected') && approval.decision !== null && approval.decidedAt !== null
      ? {
          decision: {
            decision: approval.decision,
            ...(approval.comment === null ? {} : { comment: approval.comment }),
            ...(approval.payload === undefined ? {} : { payload: approval.payload }),
            decidedBy: approval.decidedByName ?? approval.decidedBy ?? '',
            decidedAt: isoInstant(approval.decidedAt),
          },
        }
      : {};
  return {
    approvalId: approval.approvalId,
    kind,
    status: statusOf(state),
    runKind,
    jobId: approval.jobId,
    ...(approval.runKind === 'workflow' ? { workflowId: approval.workflowId, stepName: approval.stepName } : { handle: approval.handle }),
    ...(approval.message === '' ? {} : { message: approval.message }),
    ...(call === undefined ? {} : { tool: call.tool, operation: call.operation, arguments: call.arguments, riskTier: call.riskTier }),
    reason: approval.reason,
    ...(call?.policyVersion === undefined ? {} : { policyVersion: call.policyVersion }),
    ...(approval.responseSchema === undefined ? {} : { responseSchema: approval.responseSchema }),
    requestedBy: approval.requestedBy ?? null,
    createdAt: isoInstant(approval.createdAt),
    expiresAt: approval.deadline === null ? null : isoInstant(approval.deadline),
    escalated: approval.escalated === true,
    ...decided,
  };
}
