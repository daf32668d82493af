// The audit trail's log lines (docs/audit-events.md): one per governance decision, each with a stable
// `event` name to query by and only fields the framework made — owner ids the authenticator derived,
// ids the service generated, names from its own catalogs and configuration, decision categories. Never
// parameters, prompts, comments or tokens. That is why they are framework lines (written as they are).
// `owner` is the owner id itself, not the request line's digest: an audit trail must say who (documented).
// The tool-call decision line lives with the governed call (tools/governor-decision-line.ts) and the
// aggregated token refusal with the authenticator (platform/auth/refusal-log.ts).
import { FrameworkLogLine } from '../log/index.js';
import type { EnvelopeSource } from '../envelope/index.js';

export type AuditSurface = 'bundle' | 'workflow' | 'eval' | 'direct';

/** `envelope.resolved`: the envelope a run or a direct invocation will be governed by, and the rule that chose it. */
export class EnvelopeResolvedLine extends FrameworkLogLine {
  readonly event = 'envelope.resolved';
  constructor(
    /** The owner id the authenticator derived. */
    readonly owner: string,
    readonly surface: AuditSurface,
    /** subject, roles, default or anonymous (DESIGN §3 resolution order). */
    readonly source: EnvelopeSource,
    /** With source `roles`: the configured roles that matched (ByRole keys). */
    readonly matchedRoles: readonly string[],
    readonly autonomyCeiling: string,
    /** How many tool patterns the envelope grants. */
    readonly allowedTools: number,
    /** The run it was captured for (service-generated), null for a direct invocation. */
    readonly jobId: string | null,
    /** The request that caused it (X-Request-Id rules), null outside a request. */
    readonly reqId: string | null,
  ) {
    super();
  }
}

/** `approval.answered`: a person decided a workflow gate. */
export class ApprovalAnsweredLine extends FrameworkLogLine {
  readonly event = 'approval.answered';
  constructor(
    /** Who answered: the owner id the authenticator derived (only the run's owner may answer). */
    readonly owner: string,
    readonly workflowId: string,
    readonly jobId: string,
    readonly approvalId: string,
    readonly decision: 'Approve' | 'Reject',
    readonly reqId: string | null,
  ) {
    super();
  }
}

/** `archive.refused`: an uploaded bundle archive was refused by a guard. */
export class ArchiveRefusedLine extends FrameworkLogLine {
  readonly event = 'archive.refused';
  constructor(
    readonly owner: string,
    /** The guard's code from the archive guard catalog (too-large, path-traversal, …). */
    readonly guard: string,
    readonly reqId: string | null,
  ) {
    super();
  }
}
