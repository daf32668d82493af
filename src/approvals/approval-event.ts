// The webhook event of an approval's change (DESIGN.md §14): ids as the approval resource names them,
// its status and its relative URL; never the message, arguments or payload.
import type { ResourceEvent, ResourceEventType } from '../platform/outbox/index.js';
import type { ApprovalData } from './approval-record.js';
import { statusOf } from './approval-resource.js';

export function approvalEvent(type: ResourceEventType & `approval.${string}`, approval: ApprovalData, ownerId: string): ResourceEvent {
  return {
    type,
    ownerId,
    data: {
      approvalId: approval.approvalId,
      jobId: approval.jobId,
      ...(approval.runKind === 'workflow' ? { workflowId: approval.workflowId } : { handle: approval.handle }),
      status: statusOf(approval.state),
      url: `/api/approvals/${encodeURIComponent(approval.approvalId)}`,
    },
  };
}
