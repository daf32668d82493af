// One approval request of a HumanGate step and, once answered, its decision: who, when, what, and
// the comment. Withdrawn approvals (the run stopped) and expired ones (timeout = rejection) are kept.

export type ApprovalState = 'Pending' | 'Approved' | 'Rejected' | 'TimedOut' | 'Withdrawn';

export interface ApprovalRecord {
  readonly approvalId: string;
  /** The gate step's path in the run's step list. */
  readonly stepName: string;
  readonly stepId: string;
  readonly message: string;
  readonly createdAt: number;
  /** Epoch milliseconds at which it expires as a rejection; null for no timeout. */
  readonly deadline: number | null;
  state: ApprovalState;
  /** Owner id of whoever decided; null while pending, on timeout and on withdrawal. */
  decidedBy: string | null;
  decidedAt: number | null;
  decision: 'Approve' | 'Reject' | null;
  comment: string | null;
}
