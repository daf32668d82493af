// The approval contract's public surface (DESIGN.md §13): the service families open approvals with,
// the stored shape, the resource and the routes.
export { Approvals, isOpen, MAX_PAYLOAD_BYTES, type ApprovalListQuery, type DecidedHook, type DecisionRequest } from './approval-service.js';
export { ApprovalStore, APPROVAL_COLLECTION } from './approval-store.js';
export {
  decided,
  timedOut,
  withdrawn,
  isWorkflowApproval,
  decisionOf,
  type ApprovalDecision,
  type ApprovalData,
  type ApprovalKind,
  type ApprovalReason,
  type ApprovalRunKind,
  type ApprovalState,
  type BundleToolCallApproval,
  type GateApproval,
  type ToolCallApproval,
  type ToolCallReason,
  type WorkflowApproval,
  type WorkflowToolCallApproval,
} from './approval-record.js';
export { toApprovalResource, statusOf, type ApprovalResource, type ApprovalStatus } from './approval-resource.js';
export { responseSchemaProblem, responseViolations, MAX_RESPONSE_SCHEMA_BYTES } from './response-schema.js';
export { approvalNotFound, approvalClosed, selfApprovalRefused } from './approval-problems.js';
export { registerApprovalRoutes } from './routes.js';
