// Writes the audit events (audit-lines.ts) to the service log at info, under one constant message
// each, so `jq 'select(.event == "envelope.resolved")'` finds them in the JSON logs.
import type { ResolvedEnvelope } from '../envelope/index.js';
import { ApprovalAnsweredLine, ArchiveRefusedLine, EnvelopeResolvedLine, type AuditSurface } from './audit-lines.js';

export interface AuditSink {
  info(line: object, message: string): void;
}

export class AuditLog {
  readonly #sink: AuditSink;

  constructor(sink: AuditSink) {
    this.#sink = sink;
  }

  envelopeResolved(owner: string, surface: AuditSurface, envelope: ResolvedEnvelope, ids: { readonly jobId?: string | null; readonly reqId?: string | null } = {}): void {
    this.#sink.info(
      new EnvelopeResolvedLine(owner, surface, envelope.source, envelope.matchedRoles, envelope.autonomyCeiling, envelope.allowedTools.length, ids.jobId ?? null, ids.reqId ?? null),
      'envelope resolved',
    );
  }

  approvalAnswered(owner: string, ids: { readonly workflowId: string; readonly jobId: string; readonly approvalId: string }, decision: 'Approve' | 'Reject', reqId: string | null = null): void {
    this.#sink.info(new ApprovalAnsweredLine(owner, ids.workflowId, ids.jobId, ids.approvalId, decision, reqId), 'approval answered');
  }

  archiveRefused(owner: string, guard: string, reqId: string | null = null): void {
    this.#sink.info(new ArchiveRefusedLine(owner, guard, reqId), 'archive refused');
  }
}

/** An audit log that writes nothing (unit tests of code that audits). */
export const NO_AUDIT = new AuditLog({ info: () => undefined });
