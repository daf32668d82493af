// A run's approvals: opens one per waiting gate (the engine's GateKeeper), records decisions, expires
// approvals past their deadline as rejections (on the engine's timer, and whenever the run is
// looked at, so an injected clock is honoured), and withdraws what is left when the run stops.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import { redactText } from '../../platform/redaction/index.js';
import type { GateKeeper, OpenGate } from '../engine/gate-keeper.js';
import type { GateDecision } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { ApprovalRecord } from './approval-record.js';

export type DecideResult = 'decided' | 'not-found' | 'conflict';

export class ApprovalDesk implements GateKeeper {
  readonly #approvals: ApprovalRecord[];
  readonly #ids: IdGenerator;
  readonly #clock: Clock;
  readonly #waiters = new Map<string, (decision: GateDecision) => void>();

  constructor(approvals: ApprovalRecord[], deps: { readonly ids: IdGenerator; readonly clock: Clock }) {
    this.#approvals = approvals;
    this.#ids = deps.ids;
    this.#clock = deps.clock;
  }

  open(step: GraphStep, message: string, deadline: number | undefined): OpenGate {
    const approval: ApprovalRecord = {
      approvalId: this.#ids.opaque(),
      stepName: step.path,
      stepId: step.id,
      message: redactText(message),
      createdAt: this.#clock.now(),
      deadline: deadline ?? null,
      state: 'Pending',
      decidedBy: null,
      decidedAt: null,
      decision: null,
      comment: null,
    };
    this.#approvals.push(approval);
    const decided = new Promise<GateDecision>((resolve) => this.#waiters.set(approval.approvalId, resolve));
    return { approvalId: approval.approvalId, decided, expire: () => this.#expire(approval) };
  }

  decide(approvalId: string, decision: 'Approve' | 'Reject', comment: string | null, by: string): DecideResult {
    const approval = this.#approvals.find((a) => a.approvalId === approvalId);
    if (approval === undefined) return 'not-found';
    this.expireDue();
    if (approval.state !== 'Pending') return 'conflict';
    approval.state = decision === 'Approve' ? 'Approved' : 'Rejected';
    approval.decision = decision;
    approval.comment = comment;
    approval.decidedBy = by;
    approval.decidedAt = this.#clock.now();
    this.#release(approval, { decision, comment, timedOut: false });
    return 'decided';
  }

  /** Expires every pending approval whose deadline has passed on the clock. */
  expireDue(): void {
    const now = this.#clock.now();
    for (const approval of this.#approvals) {
      if (approval.state === 'Pending' && approval.deadline !== null && approval.deadline <= now) this.#expire(approval);
    }
  }

  pending(): ApprovalRecord[] {
    return this.#approvals.filter((approval) => approval.state === 'Pending');
  }

  /** Withdraws every pending approval (the run has stopped); returns how many there were. */
  withdrawPending(): number {
    const pending = this.pending();
    for (const approval of pending) {
      approval.state = 'Withdrawn';
      approval.decidedAt = this.#clock.now();
      this.#waiters.delete(approval.approvalId);
    }
    return pending.length;
  }

  #expire(approval: ApprovalRecord): void {
    if (approval.state !== 'Pending') return;
    approval.state = 'TimedOut';
    approval.decision = 'Reject';
    approval.decidedAt = this.#clock.now();
    this.#release(approval, { decision: 'Reject', comment: null, timedOut: true });
  }

  #release(approval: ApprovalRecord, decision: GateDecision): void {
    const resolve = this.#waiters.get(approval.approvalId);
    this.#waiters.delete(approval.approvalId);
    resolve?.(decision);
  }
}
