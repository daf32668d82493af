// A run's approvals as the executing instance sees them: opens one per waiting gate or supervised
// ToolUse step (the engine's GateKeeper) through the approval contract (src/approvals: stored, routed,
// audited) or, for a run resumed after a takeover, finds the step's approval already open or decided;
// releases a waiting step once its approval is decided — by a person through any instance (`refresh`
// on the run's "approval" message), by its deadline (as a rejection), or before the run resumed.
// Decisions are compare-and-set on the stored approval, so exactly one of a racing approve, reject,
// expiry or withdrawal wins. Its own writes go through `owned`: once the run engine fenced the run (its
// lease lost, or the host stopping and leaving it to another instance), none is made.
import { isWorkflowApproval, type Approvals, type WorkflowApproval } from '../../approvals/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import { redactText } from '../../platform/redaction/index.js';
import type { GateKeeper, OpenGate } from '../engine/gate-keeper.js';
import type { ApprovalRequest, GateDecision } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';

function gateDecision(approval: WorkflowApproval): GateDecision | undefined {
  if (approval.state === 'Approved' || approval.state === 'Rejected') {
    return {
      decision: approval.decision ?? 'Reject',
      comment: approval.comment,
      timedOut: false,
      ...(approval.payload === undefined ? {} : { payload: approval.payload }),
      ...(approval.decidedByName === undefined && approval.decidedBy === null ? {} : { decidedBy: approval.decidedByName ?? approval.decidedBy ?? '' }),
    };
  }
  if (approval.state === 'TimedOut') return { decision: 'Reject', comment: null, timedOut: true };
  return undefined;
}

/** Runs a write of the run's own while the run is still this instance's (LiveRun.whileOwned). */
export type OwnedWrite = <T>(write: () => Promise<T>) => Promise<T | undefined>;

/** Withdraws the pending approvals of a run that stopped; returns how many were withdrawn. */
export async function withdrawPending(approvals: Approvals, owner: Owner, pending: readonly WorkflowApproval[]): Promise<number> {
  let withdrawn = 0;
  for (const approval of pending) {
    if (approval.state !== 'Pending') continue;
    if (await approvals.withdraw(approval, owner.ownerId)) withdrawn += 1;
  }
  return withdrawn;
}

export class ApprovalDesk implements GateKeeper {
  readonly #approvals: Approvals;
  readonly #owned: OwnedWrite;
  readonly #owner: Owner;
  readonly #run: { readonly jobId: string; readonly workflowId: string; readonly requestedBy?: string | null };
  readonly #ids: IdGenerator;
  readonly #clock: Clock;
  /** This run's approvals by id, in the order they were opened. */
  readonly #byId = new Map<string, WorkflowApproval>();
  readonly #waiters = new Map<string, (decision: GateDecision) => void>();

  constructor(options: {
    readonly approvals: Approvals;
    readonly owner: Owner;
    readonly run: { readonly jobId: string; readonly workflowId: string; readonly requestedBy?: string | null };
    readonly ids: IdGenerator;
    readonly clock: Clock;
    /** Approvals the run already has (a resumed run). */
    readonly existing: readonly WorkflowApproval[];
    readonly owned: OwnedWrite;
  }) {
    this.#approvals = options.approvals;
    this.#owned = options.owned;
    this.#owner = options.owner;
    this.#run = options.run;
    this.#ids = options.ids;
    this.#clock = options.clock;
    for (const approval of options.existing) this.#byId.set(approval.approvalId, approval);
  }

  async open(step: GraphStep, request: ApprovalRequest): Promise<OpenGate> {
    let approval = [...this.#byId.values()].find((a) => a.stepId === step.id && a.state !== 'Withdrawn');
    if (approval === undefined) {
      const now = this.#clock.now();
      const call = request.toolCall;
      const common = {
        approvalId: this.#ids.opaque(),
        workflowId: this.#run.workflowId,
        jobId: this.#run.jobId,
        stepId: step.id,
        stepName: step.path,
        message: redactText(request.message),
        createdAt: now,
        deadline: this.#approvals.deadline(now, request.timeoutMs),
        state: 'Pending',
        decidedBy: null,
        decidedAt: null,
        decision: null,
        comment: null,
        runKind: 'workflow',
        ...(request.responseSchema === undefined ? {} : { responseSchema: request.responseSchema }),
        routedTo: this.#approvals.routing(request.approverRoles),
        escalated: false,
        requestedBy: this.#run.requestedBy ?? null,
      } as const;
      approval =
        call === undefined
          ? { ...common, kind: 'HumanGate', reason: 'HumanGate' }
          : {
              ...common,
              kind: 'ToolCall',
              reason: call.reason,
              tool: call.tool,
              operation: call.operation,
              arguments: call.arguments,
              riskTier: call.riskTier,
              ...(call.policyVersion === undefined ? {} : { policyVersion: call.policyVersion }),
            };
      this.#byId.set(approval.approvalId, approval);
      const opening = approval;
      await this.#owned(() => this.#approvals.request(opening, this.#owner.ownerId));
    }
    const { approvalId } = approval;
    const decision = new Promise<GateDecision>((resolve) => this.#waiters.set(approvalId, resolve));
    const known = gateDecision(approval);
    if (known !== undefined) this.#release(approvalId, known);
    return { approvalId, deadline: approval.deadline ?? undefined, decided: decision, expire: () => void this.#expire(approvalId) };
  }

  /** Re-reads this run's open approvals and releases the steps whose approval was decided elsewhere. */
  async refresh(): Promise<void> {
    for (const [approvalId, approval] of this.#byId) {
      if (approval.state !== 'Pending') continue;
      const stored = await this.#approvals.store.get(this.#owner, approvalId);
      if (stored === undefined || !isWorkflowApproval(stored) || stored.state === 'Pending') continue;
      this.#byId.set(approvalId, stored);
      const decision = gateDecision(stored);
      if (decision !== undefined) this.#release(approvalId, decision);
    }
  }

  /** How many approvals this run has that the desk knows of (every one, for a run that began here from Queued). */
  get known(): number {
    return this.#byId.size;
  }

  /** Pending approvals, oldest first (the first is the one PARKED names). */
  pending(): WorkflowApproval[] {
    return [...this.#byId.values()].filter((approval) => approval.state === 'Pending');
  }

  async #expire(approvalId: string): Promise<void> {
    const approval = this.#byId.get(approvalId);
    if (approval === undefined || approval.state !== 'Pending') return;
    if ((await this.#owned(() => this.#approvals.expire(approval, this.#owner.ownerId))) === true) {
      this.#byId.set(approvalId, { ...approval, state: 'TimedOut', decision: 'Reject', decidedAt: this.#clock.now() });
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
