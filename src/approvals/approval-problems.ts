// The approval routes' problems (DESIGN.md §13). Not visible (foreign, unknown, not routed to the
// caller) is one 404 whatever the reason.
import { ProblemError } from '../platform/problems/index.js';

export const APPROVAL_NOT_FOUND_DETAIL = 'Approval not found. It may never have existed, or belongs to a different caller.';

export const approvalNotFound = (): ProblemError => new ProblemError('not-found', APPROVAL_NOT_FOUND_DETAIL);

export const selfApprovalRefused = (): ProblemError =>
  new ProblemError('forbidden', 'Separation of duties: the run’s owner may not decide its own approvals here (Approvals:AllowSelfApproval is false); an approver must.');

export const approvalClosed = (state: string): ProblemError =>
  new ProblemError('conflict', `The approval is ${state.toLowerCase()}; it can no longer be decided that way.`);

export const payloadInvalid = (violations: readonly string[]): ProblemError =>
  new ProblemError('validation-failed', `The payload does not meet the approval’s responseSchema: ${violations.join('; ')}.`, { extensions: { violations } });
