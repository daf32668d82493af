// One approval contract for gates and tool calls (DESIGN.md §13): who sees an approval (its owner; with
// approvals on, the roles it is routed to), who may decide it (the owner unless self-approval is off;
// any routed approver), typed decisions against a gate's responseSchema, idempotent decisions, expiry
// as rejection, one escalation, and the audit line and metrics of each. A family opens approvals here
// and registers how its runs hear a decision (`onDecided`): each family's hook wakes its parked run through the run engine.
import type { ServiceMetrics } from '../platform/metrics/index.js';
import type { AuditLog, ApprovalRef } from '../platform/audit/index.js';
import type { Principal } from '../platform/auth/index.js';
import type { Clock } from '../platform/clock/index.js';
import { isoInstant } from '../platform/clock/index.js';
import type { ApprovalsConfig } from '../platform/config/types.js';
import { NO_EVENT_OUTBOX, type EventOutbox } from '../platform/outbox/index.js';
import { approvalEvent } from './approval-event.js';
import { approvalClosed, approvalNotFound, payloadInvalid, selfApprovalRefused } from './approval-problems.js';
import { decided, timedOut, withdrawn, type ApprovalData, type ApprovalRunKind } from './approval-record.js';
import { statesOf, statusOf, toApprovalResource, type ApprovalResource, type ApprovalStatus } from './approval-resource.js';
import type { ApprovalStore } from './approval-store.js';
import { responseViolations } from './response-schema.js';

/** The largest decision payload kept (as JSON); a gate's output carries it. */
export const MAX_PAYLOAD_BYTES = 65_536;
/** Open approvals one sweep looks at. */
const SWEEP_BATCH = 1_000;

export interface DecisionRequest {
  readonly decision: 'Approve' | 'Reject';
  readonly comment?: string | null;
  readonly payload?: unknown;
}

export interface ApprovalListQuery {
  readonly scope: 'mine' | 'approver';
  readonly status: ApprovalStatus;
  readonly limit: number;
  readonly cursor: string | null;
}

/** How a family's runs hear that one of their approvals was decided or expired. */
export type DecidedHook = (approval: ApprovalData, ownerId: string) => Promise<void>;

export interface ApprovalsOptions {
  readonly config: ApprovalsConfig;
  readonly store: ApprovalStore;
  readonly clock: Clock;
  readonly audit: AuditLog;
  readonly metrics?: ServiceMetrics;
  readonly log: { warn(details: object, message: string): void };
  /** Where approval.requested/decided/expired are written, with the change (webhooks). */
  readonly events?: EventOutbox;
}

export class Approvals {
  readonly #options: ApprovalsOptions;
  readonly #hooks = new Map<ApprovalRunKind, DecidedHook>();
  readonly #pending = new Map<string, number>();

  constructor(options: ApprovalsOptions) {
    this.#options = options;
    const gauge = options.metrics?.enabled === true ? options.metrics.approvalsPending : undefined;
    for (const kind of ['HumanGate', 'ToolCall']) gauge?.child(kind).track(() => this.#pending.get(kind) ?? 0);
  }

  get enabled(): boolean {
    return this.#options.config.enabled;
  }

  get #events(): EventOutbox {
    return this.#options.events ?? NO_EVENT_OUTBOX;
  }

  get store(): ApprovalStore {
    return this.#options.store;
  }

  onDecided(runKind: ApprovalRunKind, hook: DecidedHook): void {
    this.#hooks.set(runKind, hook);
  }

  /** Whom an approval is routed to besides its owner: the gate's own roles, else ApproverRoles; nobody while approvals are off. */
  routing(gateRoles?: readonly string[]): string[] {
    if (!this.enabled) return [];
    return [...new Set(gateRoles ?? this.#options.config.approverRoles)];
  }

  /** When an approval opened now expires: a gate's own timeout wins, else DefaultTimeout while approvals are on, else never. */
  deadline(now: number, timeoutMs: number | undefined): number | null {
    if (timeoutMs !== undefined) return now + timeoutMs;
    return this.enabled ? now + this.#options.config.defaultTimeoutMs : null;
  }

  /** Stores a new approval, routes it, and says so. */
  async request(approval: ApprovalData, ownerId: string): Promise<void> {
    await this.#options.store.open(approval, ownerId, await this.#events.entriesFor(approvalEvent('approval.requested', approval, ownerId), approval.createdAt));
    this.#options.audit.approvalRequested(refOf(approval, ownerId), {
      tool: approval.kind === 'ToolCall' ? approval.tool : null,
      reason: approval.reason,
      routedTo: approval.routedTo ?? [],
      expiresAt: approval.deadline === null ? null : isoInstant(approval.deadline),
    });
  }

  /** Settles a still-open approval as expired (a rejection); false when it was decided first. */
  async expire(approval: ApprovalData, ownerId: string): Promise<boolean> {
    const now = this.#options.clock.now();
    const expired = timedOut(approval, now);
    if (!(await this.#options.store.settle(ownerId, expired, await this.#events.entriesFor(approvalEvent('approval.expired', expired, ownerId), now)))) return false;
    this.#options.audit.approvalExpired(refOf(approval, ownerId), now - approval.createdAt);
    this.#observeWait(approval, 'expired', now);
    return true;
  }

  /** Withdraws a still-open approval of a run that stopped; false when it was decided first. */
  withdraw(approval: ApprovalData, ownerId: string): Promise<boolean> {
    return this.#options.store.settle(ownerId, withdrawn(approval, this.#options.clock.now()));
  }

  /** Expires the approvals whose deadline passed (a compare-and-set each) and tells their runs; returns those it expired. */
  async expireDue(approvals: readonly ApprovalData[], ownerId: string): Promise<ApprovalData[]> {
    const now = this.#options.clock.now();
    const expired: ApprovalData[] = [];
    for (const approval of approvals) {
      if (approval.state !== 'Pending' || approval.deadline === null || approval.deadline > now) continue;
      if (!(await this.expire(approval, ownerId))) continue;
      expired.push(approval);
      await this.#tell(timedOut(approval, now), ownerId);
    }
    return expired;
  }

  /**
   * Expires approval `approvalId` of `ownerId` when its deadline passed and it is still open, and tells
   * its run (the timer of the instance that parked the run calls it at the deadline).
   */
  async expireOverdue(ownerId: string, approvalId: string): Promise<'expired' | 'not-due' | 'closed'> {
    const approval = await this.#options.store.get({ ownerId }, approvalId);
    if (approval === undefined || approval.state !== 'Pending' || approval.deadline === null) return 'closed';
    if (approval.deadline > this.#options.clock.now()) return 'not-due';
    return (await this.expireDue([approval], ownerId)).length === 1 ? 'expired' : 'closed';
  }

  async list(principal: Principal, query: ApprovalListQuery): Promise<{ approvals: ApprovalResource[]; nextCursor: string | null }> {
    const { store, clock } = this.#options;
    const states = statesOf(query.status);
    const page = { states, limit: query.limit, cursor: query.cursor };
    if (query.scope === 'approver' && !this.enabled) return { approvals: [], nextCursor: null };
    const found = query.scope === 'mine' ? await store.mine(principal, page) : await store.routed(principal.roles, page);
    const now = clock.now();
    return {
      // A Pending approval past its deadline is expired already, whoever has yet to write it.
      approvals: found.approvals.map((approval) => toApprovalResource(approval, now)).filter((resource) => resource.status === query.status),
      nextCursor: found.nextCursor,
    };
  }

  async get(principal: Principal, approvalId: string): Promise<ApprovalResource> {
    const found = await this.#visible(principal, approvalId);
    if (found === undefined) throw approvalNotFound();
    return toApprovalResource(found.approval, this.#options.clock.now());
  }

  /**
   * Records a person's decision. The same decision again answers the approval as it stands (200);
   * another decision once decided, or an expired or withdrawn approval, is a 409. `within` narrows it
   * to one run (§6's route, where a repeat is a 409 too: `strict`).
   */
  async decide(
    principal: Principal,
    approvalId: string,
    request: DecisionRequest,
    options: { readonly requestId?: string | null; readonly within?: (approval: ApprovalData) => boolean; readonly strict?: boolean } = {},
  ): Promise<ApprovalResource> {
    const { store, clock } = this.#options;
    const found = await this.#visible(principal, approvalId);
    if (found === undefined || (options.within !== undefined && !options.within(found.approval))) throw approvalNotFound();
    const { ownerId } = found;
    // Separation of duties is about deciding an open approval: a closed one answers as closed (409) to anyone.
    const selfRefused = found.asOwner && this.enabled && !this.#options.config.allowSelfApproval;
    if (selfRefused && isOpen(found.approval, clock.now())) throw selfApprovalRefused();
    const payload = request.payload;
    if (payload !== undefined && Buffer.byteLength(JSON.stringify(payload), 'utf8') > MAX_PAYLOAD_BYTES) {
      throw payloadInvalid([`payload is over ${MAX_PAYLOAD_BYTES} bytes as JSON`]);
    }
    const schema = found.approval.responseSchema;
    if (request.decision === 'Approve' && schema !== undefined) {
      const violations = payload === undefined ? ['payload is required by the approval’s responseSchema'] : responseViolations(schema, payload);
      if (violations.length > 0) throw payloadInvalid(violations);
    }
    let current = found.approval;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = clock.now();
      if (current.state === 'Pending' && current.deadline !== null && current.deadline <= now) {
        await this.#expired(current, ownerId);
        current = (await store.get({ ownerId }, approvalId)) ?? current;
      }
      if (current.state !== 'Pending') {
        if (!selfRefused && options.strict !== true && current.decision === request.decision && (current.state === 'Approved' || current.state === 'Rejected')) {
          return toApprovalResource(current, now);
        }
        throw approvalClosed(statusOf(current.state));
      }
      const next = decided(current, request.decision, request.comment ?? null, { ownerId: principal.ownerId, name: principal.displayName ?? null }, now, request.decision === 'Approve' ? payload : undefined);
      if (await store.settle(ownerId, next, await this.#events.entriesFor(approvalEvent('approval.decided', next, ownerId), now))) {
        this.#options.audit.approvalDecided(refOf(next, ownerId), principal.ownerId, request.decision, now - next.createdAt, options.requestId ?? null);
        this.#observeWait(next, request.decision === 'Approve' ? 'approved' : 'rejected', now);
        await this.#tell(next, ownerId);
        return toApprovalResource(next, now);
      }
      // Someone else settled it first: answer as it now stands.
      current = (await store.get({ ownerId }, approvalId)) ?? current;
    }
    throw approvalClosed(statusOf(current.state));
  }

  /** Expires overdue approvals, escalates those waiting past EscalateAfter, counts what waits. */
  async sweep(): Promise<void> {
    const { store, clock, config, audit } = this.#options;
    {
      const open = await store.openAll(SWEEP_BATCH);
      const counts = new Map<string, number>();
      for (const { approval, ownerId } of open) {
        const now = clock.now();
        if (approval.state !== 'Pending') continue;
        if (approval.deadline !== null && approval.deadline <= now) {
          await this.#expired(approval, ownerId);
          continue;
        }
        counts.set(approval.kind, (counts.get(approval.kind) ?? 0) + 1);
        const after = config.escalateAfterMs;
        if (this.enabled && after !== null && config.escalationRoles.length > 0 && approval.escalated !== true && now - approval.createdAt >= after) {
          const escalated = await store.escalate(ownerId, approval, config.escalationRoles);
          if (escalated !== undefined) audit.approvalEscalated(refOf(approval, ownerId), config.escalationRoles);
        }
      }
      this.#pending.clear();
      for (const [kind, count] of counts) this.#pending.set(kind, count);
      await store.sweep();
    }
  }

  async #expired(approval: ApprovalData, ownerId: string): Promise<void> {
    if (await this.expire(approval, ownerId)) await this.#tell(timedOut(approval, this.#options.clock.now()), ownerId);
  }

  async #tell(approval: ApprovalData, ownerId: string): Promise<void> {
    const hook = this.#hooks.get(approval.runKind);
    await hook?.(approval, ownerId).catch((err: unknown) => this.#options.log.warn({ err, approvalId: approval.approvalId }, 'telling a run of its decided approval failed'));
  }

  /** The approval as this caller may see it: their own, or (approvals on) routed to one of their roles. */
  async #visible(principal: Principal, approvalId: string): Promise<{ approval: ApprovalData; ownerId: string; asOwner: boolean } | undefined> {
    const own = await this.#options.store.get(principal, approvalId);
    if (own !== undefined) return { approval: own, ownerId: principal.ownerId, asOwner: true };
    if (!this.enabled || principal.roles.length === 0) return undefined;
    const routed = await this.#options.store.findRouted(principal.roles, approvalId);
    return routed === undefined ? undefined : { ...routed, asOwner: false };
  }

  #observeWait(approval: ApprovalData, outcome: 'approved' | 'rejected' | 'expired', now: number): void {
    const metrics = this.#options.metrics;
    if (metrics?.enabled !== true) return;
    metrics.approvalWait.child(approval.kind, outcome).observe(Math.max(0, now - approval.createdAt) / 1000);
  }
}

/** Still waiting for a decision: Pending and not past its deadline. */
export function isOpen(approval: ApprovalData, now: number): boolean {
  return approval.state === 'Pending' && (approval.deadline === null || approval.deadline > now);
}

function refOf(approval: ApprovalData, ownerId: string): ApprovalRef {
  return { approvalId: approval.approvalId, kind: approval.kind, runKind: approval.runKind, jobId: approval.jobId, owner: ownerId };
}
