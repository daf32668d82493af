// Writes the audit events (audit-lines.ts) to the service log at info, under one constant message
// each, so `jq 'select(.event == "envelope.resolved")'` finds them in the JSON logs.
import type { ResolvedEnvelope } from '../envelope/index.js';
import {
  ApprovalDecidedLine,
  ApprovalEscalatedLine,
  ApprovalExpiredLine,
  ApprovalRequestedLine,
  ArchiveRefusedLine,
  EnvelopeResolvedLine,
  ScheduleFailedLine,
  ScheduleFiredLine,
  SpendThresholdLine,
  type ApprovalRef,
  type ScheduleFireRef,
  type AuditSurface,
  type AuditChannel,
} from './audit-lines.js';

export interface AuditSink {
  info(line: object, message: string): void;
}

export class AuditLog {
  readonly #sink: AuditSink;

  constructor(sink: AuditSink) {
    this.#sink = sink;
  }

  envelopeResolved(
    owner: string,
    surface: AuditSurface,
    envelope: ResolvedEnvelope,
    ids: { readonly jobId?: string | null; readonly reqId?: string | null; readonly channel?: AuditChannel } = {},
  ): void {
    this.#sink.info(
      new EnvelopeResolvedLine(owner, surface, envelope.source, envelope.matchedRoles, envelope.autonomyCeiling, envelope.allowedTools.length, ids.jobId ?? null, ids.reqId ?? null, ids.channel),
      'envelope resolved',
    );
  }

  approvalRequested(ref: ApprovalRef, details: { readonly tool: string | null; readonly reason: string; readonly routedTo: readonly string[]; readonly expiresAt: string | null }): void {
    this.#sink.info(new ApprovalRequestedLine(ref, details.tool, details.reason, details.routedTo, details.expiresAt), 'approval requested');
  }

  approvalDecided(ref: ApprovalRef, by: string, decision: 'Approve' | 'Reject', waitedMs: number, reqId: string | null = null): void {
    this.#sink.info(new ApprovalDecidedLine(ref, by, decision, waitedMs, reqId), 'approval decided');
  }

  approvalExpired(ref: ApprovalRef, waitedMs: number): void {
    this.#sink.info(new ApprovalExpiredLine(ref, waitedMs), 'approval expired');
  }

  approvalEscalated(ref: ApprovalRef, roles: readonly string[]): void {
    this.#sink.info(new ApprovalEscalatedLine(ref, roles), 'approval escalated');
  }

  archiveRefused(owner: string, guard: string, reqId: string | null = null): void {
    this.#sink.info(new ArchiveRefusedLine(owner, guard, reqId), 'archive refused');
  }

  scheduleFired(ref: ScheduleFireRef, jobId: string, catchUp: boolean): void {
    this.#sink.info(new ScheduleFiredLine(ref, jobId, catchUp), 'schedule fired');
  }

  scheduleFailed(ref: ScheduleFireRef, outcome: 'Skipped' | 'Failed', problem: string): void {
    this.#sink.info(new ScheduleFailedLine(ref, outcome, problem), 'schedule fire did not start its run');
  }

  spendThreshold(owner: string, crossing: { readonly period: 'day' | 'month'; readonly periodKey: string; readonly limitUsd: number; readonly spentUsd: number }, family: string): void {
    this.#sink.info(new SpendThresholdLine(owner, crossing.period, crossing.periodKey, crossing.limitUsd, crossing.spentUsd, family), 'spend threshold crossed');
  }
}

/** An audit log that writes nothing (unit tests of code that audits). */
export const NO_AUDIT = new AuditLog({ info: () => undefined });
