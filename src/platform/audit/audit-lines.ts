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
    /** The channel a bundle run was started on when not the bundle routes (`a2a`, DESIGN §20); absent otherwise. */
    readonly channel?: AuditChannel,
  ) {
    super();
  }
}

/** A run surface's other door: a bundle run started over A2A (surface `bundle`, channel `a2a`). */
export type AuditChannel = 'a2a';

/** Which approval a line is about: service-generated ids, the kind and the run's family. */
export interface ApprovalRef {
  readonly approvalId: string;
  readonly kind: 'HumanGate' | 'ToolCall';
  readonly runKind: 'bundle' | 'workflow';
  readonly jobId: string;
  /** The run's owner (the requester). */
  readonly owner: string;
}

/** The fields every approval line carries: which approval, of which run, whose. */
abstract class ApprovalLine extends FrameworkLogLine {
  readonly approvalId: string;
  readonly kind: string;
  readonly runKind: string;
  readonly jobId: string;
  readonly owner: string;
  constructor(ref: ApprovalRef) {
    super();
    ({ approvalId: this.approvalId, kind: this.kind, runKind: this.runKind, jobId: this.jobId, owner: this.owner } = ref);
  }
}

/** `approval.requested`: a run waits for a person (a gate, or a supervised tool call). */
export class ApprovalRequestedLine extends ApprovalLine {
  readonly event = 'approval.requested';
  constructor(
    ref: ApprovalRef,
    /** The tool (a registry name) of a tool-call approval; null for a gate. */
    readonly tool: string | null,
    /** The rule that asked: HumanGate, Supervised ceiling or bundle require-approval. */
    readonly reason: string,
    /** Roles it is routed to besides its owner (configuration or the gate's). */
    readonly routedTo: readonly string[],
    readonly expiresAt: string | null,
  ) {
    super(ref);
  }
}

/** `approval.decided`: a person decided; who, and how long it waited. */
export class ApprovalDecidedLine extends ApprovalLine {
  readonly event = 'approval.decided';
  constructor(
    ref: ApprovalRef,
    /** The decider's owner id (the authenticator's). */
    readonly by: string,
    readonly decision: 'Approve' | 'Reject',
    readonly waitedMs: number,
    readonly reqId: string | null,
  ) {
    super(ref);
  }
}

/** `approval.expired`: nobody decided in time; it counts as a rejection. */
export class ApprovalExpiredLine extends ApprovalLine {
  readonly event = 'approval.expired';
  constructor(
    ref: ApprovalRef,
    readonly waitedMs: number,
  ) {
    super(ref);
  }
}

/** `approval.escalated`: EscalateAfter passed undecided; now routed to the escalation roles too. */
export class ApprovalEscalatedLine extends ApprovalLine {
  readonly event = 'approval.escalated';
  constructor(
    ref: ApprovalRef,
    readonly roles: readonly string[],
  ) {
    super(ref);
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

/** Which fire of which schedule a line is about: service-generated ids and the scheduled instant. */
export interface ScheduleFireRef {
  readonly scheduleId: string;
  /** The schedule's owner, as whom the run starts. */
  readonly owner: string;
  /** The cron instant fired for (ISO 8601, UTC). */
  readonly scheduledFor: string;
  readonly target: 'workflow' | 'eval';
}

/** The fields both schedule lines carry. */
abstract class ScheduleLine extends FrameworkLogLine {
  readonly scheduleId: string;
  readonly owner: string;
  readonly scheduledFor: string;
  readonly target: string;
  constructor(ref: ScheduleFireRef) {
    super();
    ({ scheduleId: this.scheduleId, owner: this.owner, scheduledFor: this.scheduledFor, target: this.target } = ref);
  }
}

/** `schedule.fired`: a schedule's fire started its run, as the schedule's owner. */
export class ScheduleFiredLine extends ScheduleLine {
  readonly event = 'schedule.fired';
  constructor(
    ref: ScheduleFireRef,
    readonly jobId: string,
    /** True when this one fire stands for several instants missed while no instance ran (catch-up). */
    readonly catchUp: boolean,
  ) {
    super(ref);
  }
}

/** `schedule.failed`: a schedule's fire could not start its run (Skipped: a live run or a cap; Failed: anything else). */
export class ScheduleFailedLine extends ScheduleLine {
  readonly event = 'schedule.failed';
  constructor(
    ref: ScheduleFireRef,
    readonly outcome: 'Skipped' | 'Failed',
    /** The problem code the start was refused with (`conflict`, `forbidden`, `not-found`, …), or `internal`. */
    readonly problem: string,
  ) {
    super(ref);
  }
}

/** `spend.threshold`: an owner's spend crossed 80 % of a day or month limit (once per period, across instances). */
export class SpendThresholdLine extends FrameworkLogLine {
  readonly event = 'spend.threshold';
  constructor(
    readonly owner: string,
    readonly period: 'day' | 'month',
    /** The period's key (`day:2026-11-27`, `month:2026-11`). */
    readonly periodKey: string,
    readonly limitUsd: number,
    readonly spentUsd: number,
    /** Which family's model call crossed it. */
    readonly family: string,
  ) {
    super();
  }
}
