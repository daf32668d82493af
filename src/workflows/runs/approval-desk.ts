// A run's approvals as the executing instance sees them: opens one per waiting gate (the engine's
// GateKeeper) or, for a run resumed after a takeover, finds the gate's approval already open or
// decided; releases a waiting gate once its approval is decided — by the owner through any instance
// (`refresh` on the run's "approval" message), by its deadline (as a rejection), or before the run
// resumed. Decisions are compare-and-set on the stored approval, so exactly one of a racing approve,
// reject, expiry or withdrawal wins. Its own writes go through `owned`: once the run engine fenced
// the run (its lease lost, or the host stopping and leaving it to another instance), none is made.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import { redactText } from '../../platform/redaction/index.js';
import type { GateKeeper, OpenGate } from '../engine/gate-keeper.js';
import type { GateDecision } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { WorkflowRunStore } from './workflow-run-store.js';
import type { ApprovalData } from './workflow-run.js';

export function decided(approval: ApprovalData, decision: 'Approve' | 'Reject', comment: string | null, by: string, now: number): ApprovalData {
  return { ...approval, state: decision === 'Approve' ? 'Approved' : 'Rejected', decision, comment, decidedBy: by, decidedAt: now };
}

export function timedOut(approval: ApprovalData, now: number): ApprovalData {
  return { ...approval, state: 'TimedOut', decision: 'Reject', decidedAt: now };
}

function gateDecision(approval: ApprovalData): GateDecision | undefined {
  if (approval.state === 'Approved' || approval.state === 'Rejected') {
    return { decision: approval.decision ?? 'Reject', comment: approval.comment, timedOut: false };
  }
  if (approval.state === 'TimedOut') return { decision: 'Reject', comment: null, timedOut: true };
  return undefined;
}

/** Expires the approvals whose deadline passed (any instance may: a compare-and-set); returns the ids it expired. */
export async function expireDue(runs: WorkflowRunStore, owner: Owner, approvals: readonly ApprovalData[], now: number): Promise<string[]> {
  const expired: string[] = [];
  for (const approval of approvals) {
    if (approval.state !== 'Pending' || approval.deadline === null || approval.deadline > now) continue;
    if (await runs.settleApproval(owner, timedOut(approval, now))) expired.push(approval.approvalId);
  }
  return expired;
}

/** Runs a write of the run's own while the run is still this instance's (LiveRun.whileOwned). */
export type OwnedWrite = <T>(write: () => Promise<T>) => Promise<T | undefined>;

/** Withdraws the pending approvals of a run that stopped; returns how many were withdrawn. */
export async function withdrawPending(runs: WorkflowRunStore, owner: Owner, pending: readonly ApprovalData[], now: number): Promise<number> {
  let withdrawn = 0;
  for (const approval of pending) {
    if (approval.state !== 'Pending') continue;
    if (await runs.settleApproval(owner, { ...approval, state: 'Withdrawn', decidedAt: now })) withdrawn += 1;
  }
  return withdrawn;
}

export class ApprovalDesk implements GateKeeper {
  readonly #runs: WorkflowRunStore;
  readonly #owned: OwnedWrite;
  readonly #owner: Owner;
  readonly #run: { readonly jobId: string; readonly workflowId: string };
  readonly #ids: IdGenerator;
  readonly #clock: Clock;
  /** This run's approvals by id, in the order they were opened. */
  readonly #approvals = new Map<string, ApprovalData>();
  readonly #waiters = new Map<string, (decision: GateDecision) => void>();

  constructor(options: {
    readonly runs: WorkflowRunStore;
    readonly owner: Owner;
    readonly run: { readonly jobId: string; readonly workflowId: string };
    readonly ids: IdGenerator;
    readonly clock: Clock;
    /** Approvals the run already has (a resumed run). */
    readonly existing: readonly ApprovalData[];
    readonly owned: OwnedWrite;
  }) {
    this.#runs = options.runs;
    this.#owned = options.owned;
    this.#owner = options.owner;
    this.#run = options.run;
    this.#ids = options.ids;
    this.#clock = options.clock;
    for (const approval of options.existing) this.#approvals.set(approval.approvalId, approval);
  }

  async open(step: GraphStep, message: string, deadline: number | undefined): Promise<OpenGate> {
    let approval = [...this.#approvals.values()].find((a) => a.stepId === step.id && a.state !== 'Withdrawn');
    if (approval === undefined) {
      approval = {
        approvalId: this.#ids.opaque(),
        workflowId: this.#run.workflowId,
        jobId: this.#run.jobId,
        stepId: step.id,
        stepName: step.path,
        message: redactText(message),
        createdAt: this.#clock.now(),
        deadline: deadline ?? null,
        state: 'Pending',
        decidedBy: null,
        decidedAt: null,
        decision: null,
        comment: null,
      };
      this.#approvals.set(approval.approvalId, approval);
      const opening = approval;
      await this.#owned(() => this.#runs.openApproval(this.#owner, opening));
    }
    const { approvalId } = approval;
    const decision = new Promise<GateDecision>((resolve) => this.#waiters.set(approvalId, resolve));
    const known = gateDecision(approval);
    if (known !== undefined) this.#release(approvalId, known);
    return { approvalId, deadline: approval.deadline ?? undefined, decided: decision, expire: () => void this.#expire(approvalId) };
  }

  /** Re-reads this run's open approvals and releases the gates whose approval was decided elsewhere. */
  async refresh(): Promise<void> {
    for (const [approvalId, approval] of this.#approvals) {
      if (approval.state !== 'Pending') continue;
      const stored = await this.#runs.approval(this.#owner, approvalId);
      if (stored === undefined || stored.state === 'Pending') continue;
      this.#approvals.set(approvalId, stored);
      const decision = gateDecision(stored);
      if (decision !== undefined) this.#release(approvalId, decision);
    }
  }

  /** Pending approvals, oldest first (the first is the one PARKED names). */
  pending(): ApprovalData[] {
    return [...this.#approvals.values()].filter((approval) => approval.state === 'Pending');
  }

  async #expire(approvalId: string): Promise<void> {
    const approval = this.#approvals.get(approvalId);
    if (approval === undefined || approval.state !== 'Pending') return;
    const expired = timedOut(approval, this.#clock.now());
    if ((await this.#owned(() => this.#runs.settleApproval(this.#owner, expired))) === true) {
      this.#approvals.set(approvalId, timedOut(approval, this.#clock.now()));
      this.#release(approvalId, { decision: 'Reject', comment: null, timedOut: true });
    } else {
      await this.refresh();
    }
  }

  #release(approvalId: string, decision: GateDecision): void {
    const resolve = this.#waiters.get(approvalId);
    this.#waiters.delete(approvalId);
    resolve?.(decision);
  }
}
