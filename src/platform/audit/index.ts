// The audit trail: one structured log event per governance decision (docs/audit-events.md).
export { AuditLog, NO_AUDIT, type AuditSink } from './audit-log.js';
export { EnvelopeResolvedLine, ApprovalAnsweredLine, ArchiveRefusedLine, type AuditSurface } from './audit-lines.js';
