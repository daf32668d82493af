// An approval as the storage keeps it (DESIGN.md §13): a union by what asked a person — a workflow
// HumanGate, or a tool call (of a workflow ToolUse step under Supervised, or of a bundle run). Plain
// data. Each variant carries only its own fields: a gate has no tool, a bundle run's call has no
// workflow or step name. Approvals stored before §13 carry no `kind`: the store reads them as
// workflow gates (`fromStored`); bundle approvals stored before this union carry `workflowId: ''` and
// `stepName: ''`, which nothing reads.

export type ApprovalState = 'Pending' | 'Approved' | 'Rejected' | 'TimedOut' | 'Withdrawn';
export type ApprovalKind = 'HumanGate' | 'ToolCall';
export type ApprovalRunKind = 'bundle' | 'workflow';
/** The rule that asked a person. */
export type ApprovalReason = 'HumanGate' | ToolCallReason;
/** Why a person is asked about a call: the Supervised ceiling, the bundle's require-approval, or a policy (`policy <id>`, DESIGN.md §18). */
export type ToolCallReason = 'Supervised ceiling' | 'bundle require-approval' | `policy ${string}`;

/** What every approval has, whatever asked for it. */
interface ApprovalCommon {
  readonly approvalId: string;
  readonly jobId: string;
  /** The waiting step's id (a workflow run) or the tool call's id (a bundle run). */
  readonly stepId: string;
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
  /** Roles that may see and decide it besides its owner (empty: the owner only). */
  readonly routedTo?: readonly string[];
  readonly escalated?: boolean;
  /** The requester's name or preferred_username claim, else null. */
  readonly requestedBy?: string | null;
  readonly payload?: unknown;
  /** The decider's name or preferred_username claim, else their owner id. */
  readonly decidedByName?: string | null;
  /** JSON Schema 2020-12 an Approve's payload must meet (a gate's responseSchema). */
  readonly responseSchema?: Readonly<Record<string, unknown>>;
}

/** Where a workflow run's approval waits: its workflow and the waiting step's path in the run's step list. */
interface InWorkflow {
  readonly runKind: 'workflow';
  readonly workflowId: string;
  readonly stepName: string;
}

/** The call a person is asked about. */
interface ToolCallAsked {
  readonly kind: 'ToolCall';
  readonly tool: string;
  readonly operation: string;
  /** The call's parameters as redacted JSON text; null when withheld above the frame ceiling. */
  readonly arguments: string | null;
  readonly riskTier: string;
  readonly reason: ToolCallReason;
  /** The version of the policy set that asked (DESIGN.md §18), when a policy did. */
  readonly policyVersion?: string;
}

/** A workflow HumanGate. */
export interface GateApproval extends ApprovalCommon, InWorkflow {
  readonly kind: 'HumanGate';
  readonly reason: 'HumanGate';
}

/** A workflow ToolUse step's call under Supervised. */
export interface WorkflowToolCallApproval extends ApprovalCommon, InWorkflow, ToolCallAsked {}

/** A bundle run's tool call. */
export interface BundleToolCallApproval extends ApprovalCommon, ToolCallAsked {
  readonly runKind: 'bundle';
  /** The bundle handle the run is under. */
  readonly handle: string;
}

export type ToolCallApproval = WorkflowToolCallApproval | BundleToolCallApproval;
export type WorkflowApproval = GateApproval | WorkflowToolCallApproval;
export type ApprovalData = GateApproval | ToolCallApproval;

export function isWorkflowApproval(approval: ApprovalData): approval is WorkflowApproval {
  return approval.runKind === 'workflow';
}

/**
 * An approval as a stored row reads: one stored before DESIGN.md §13 (no `kind`, `runKind` or
 * `reason`) is the workflow gate it was then; any other is as written.
 */
export function fromStored(data: ApprovalData): ApprovalData {
  const stored = data as Partial<Pick<ApprovalData, 'kind' | 'runKind' | 'reason'>> & Omit<GateApproval, 'kind' | 'runKind' | 'reason'>;
  if (stored.kind !== undefined && stored.runKind !== undefined && stored.reason !== undefined) return data;
  return { ...stored, kind: 'HumanGate', runKind: 'workflow', reason: 'HumanGate' };
}

/** What a decided (or expired) approval says to the run waiting on it; the run engine's RunDecision. */
export interface ApprovalDecision {
  readonly approvalId: string;
  readonly outcome: 'approved' | 'rejected' | 'expired';
  /** Who approved, as the audit line names them (null unless approved). */
  readonly by: string | null;
}

/** The decision of an approval that is decided or expired; undefined while undecided (or withdrawn). */
export function decisionOf(approval: ApprovalData): ApprovalDecision | undefined {
  switch (approval.state) {
    case 'Approved':
      return { approvalId: approval.approvalId, outcome: 'approved', by: approval.decidedByName ?? approval.decidedBy ?? 'an approver' };
    case 'Rejected':
      return { approvalId: approval.approvalId, outcome: 'rejected', by: null };
    case 'TimedOut':
      return { approvalId: approval.approvalId, outcome: 'expired', by: null };
    default:
      return undefined;
  }
}

export function isDecided(approval: ApprovalData): boolean {
  return approval.state !== 'Pending';
}

export function decided<A extends ApprovalData>(
  approval: A,
  decision: 'Approve' | 'Reject',
  comment: string | null,
  by: { readonly ownerId: string; readonly name: string | null },
  now: number,
  payload?: unknown,
): A {
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

export function timedOut<A extends ApprovalData>(approval: A, now: number): A {
  return { ...approval, state: 'TimedOut', decision: 'Reject', decidedAt: now };
}

export function withdrawn<A extends ApprovalData>(approval: A, now: number): A {
  return { ...approval, state: 'Withdrawn', decidedAt: now };
}
