// The audit trail: one structured log event per governance decision (docs/audit-events.md).
export { AuditLog, NO_AUDIT, type AuditSink } from './audit-log.js';
export {
  EnvelopeResolvedLine,
  ApprovalRequestedLine,
  ApprovalDecidedLine,
  ApprovalExpiredLine,
  ApprovalEscalatedLine,
  ArchiveRefusedLine,
  ScheduleFiredLine,
  ScheduleFailedLine,
  SpendThresholdLine,
  type ApprovalRef,
  type ScheduleFireRef,
  type AuditSurface,
  type AuditChannel,
} from './audit-lines.js';
