// An approval as the storage keeps it (DESIGN.md §13): one shape for a workflow HumanGate, a workflow
// ToolUse step under Supervised and a bundle run's tool call. Plain data; the fields after `comment`
// came with §13 and are absent on approvals stored before it (read as a workflow gate, owner-only).

export type ApprovalState = 'Pending' | 'Approved' | 'Rejected' | 'TimedOut' | 'Withdrawn';
export type ApprovalKind = 'HumanGate' | 'ToolCall';
export type ApprovalRunKind = 'bundle' | 'workflow';
/** The rule that asked a person. */
export type ApprovalReason = 'HumanGate' | 'Supervised ceiling' | 'bundle require-approval';

export interface ApprovalData {
  readonly approvalId: string;
  /** The workflow of a workflow run; '' for a bundle run's. */
  readonly workflowId: string;
  readonly jobId: string;
  /** The waiting step's id (a workflow run) or the tool call's id (a bundle run). */
  readonly stepId: string;
  /** The gate step's path in the run's step list; '' for a bundle run's. */
  readonly stepName: string;
  /** Redacted. */
  readonly message: string;
  readonly createdAt: number;
  /** Epoch milliseconds at which it expires as a rejection; null for no timeout. */
  readonly deadline: number | null;
  readonly state: ApprovalState;
  /** Owner id of whoever decided; null while pending, on timeout and on withdrawal. */
  readonly decidedBy: string | null;
  readonly decidedAt: number | null;
  readonly decision: 'Approve' | 'Reject' | null;
  readonly comment: string | null;
  readonly kind?: ApprovalKind;
  readonly runKind?: ApprovalRunKind;
  /** The bundle handle of a bundle run's approval. */
  readonly handle?: string;
  readonly tool?: string;
  readonly operation?: string;
  /** The call's parameters as redacted JSON text; null when withheld above the frame ceiling. */
  readonly arguments?: string | null;
  readonly riskTier?: string;
  readonly reason?: ApprovalReason;
  /** JSON Schema 2020-12 an Approve's payload must meet (a gate's responseSchema). */
  readonly responseSchema?: Readonly<Record<string, unknown>>;
  /** Roles that may see and decide it besides its owner (empty: the owner only). */
  readonly routedTo?: readonly string[];
  readonly escalated?: boolean;
  /** The requester's name or preferred_username claim, else null. */
  readonly requestedBy?: string | null;
  readonly payload?: unknown;
  /** The decider's name or preferred_username claim, else their owner id. */
  readonly decidedByName?: string | null;
}

export function isDecided(approval: ApprovalData): boolean {
  return approval.state !== 'Pending';
}

export function decided(
  approval: ApprovalData,
  decision: 'Approve' | 'Reject',
  comment: string | null,
  by: { readonly ownerId: string; readonly name: string | null },
  now: number,
  payload?: unknown,
): ApprovalData {
  return {
    ...approval,
    state: decision === 'Approve' ? 'Approved' : 'Rejected',
    decision,
    comment,
    decidedBy: by.ownerId,
    decidedByName: by.name ?? by.ownerId,
    decidedAt: now,
    ...(payload === undefined ? {} : { payload }),
  };
}

export function timedOut(approval: ApprovalData, now: number): ApprovalData {
  return { ...approval, state: 'TimedOut', decision: 'Reject', decidedAt: now };
}

export function withdrawn(approval: ApprovalData, now: number): ApprovalData {
  return { ...approval, state: 'Withdrawn', decidedAt: now };
}
