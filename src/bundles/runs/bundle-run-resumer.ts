// Resumes a bundle run parked for a person's decision (DESIGN.md §13), on the instance the decision
// (or the approval's expiry) reached: the run goes from Parked to Queued with this instance's lease and
// the verdict its waiting call is made again with, compare-and-set (exactly one resume, however many
// instances hear the decision), then into this instance's lane. A run written Parked after its approval
// was already decided is resumed the same way by the run kind, so a fast decision is never lost.
import type { ApprovalData, Approvals } from '../../approvals/index.js';
import type { Storage } from '../../platform/storage/index.js';
import type { RunEngine } from '../../runs/index.js';
import type { ApprovalVerdict } from '../../tools/index.js';
import { bundleRunKey, PARKED } from './bundle-run-store.js';
import type { BundleRunRecord, RunningRun } from './run-record.js';

/** The verdict a decided approval gives its waiting call; undefined while undecided (or withdrawn). */
export function verdictOf(approval: ApprovalData): ApprovalVerdict | undefined {
  switch (approval.state) {
    case 'Approved':
      return { approved: true, by: approval.decidedByName ?? approval.decidedBy ?? 'an approver' };
    case 'Rejected':
      return { approved: false, expired: false };
    case 'TimedOut':
      return { approved: false, expired: true };
    default:
      return undefined;
  }
}

export class BundleRunResumer {
  readonly #storage: Storage;
  readonly #engine: RunEngine;
  readonly #approvals: Approvals;

  constructor(options: { readonly storage: Storage; readonly engine: RunEngine; readonly approvals: Approvals }) {
    this.#storage = options.storage;
    this.#engine = options.engine;
    this.#approvals = options.approvals;
  }

  /** The approval contract's hook: a bundle approval was decided or expired. */
  async decided(approval: ApprovalData, ownerId: string): Promise<void> {
    const verdict = verdictOf(approval);
    if (verdict === undefined) return;
    const key = bundleRunKey({ ownerId, jobId: approval.jobId });
    const record = await this.#storage.records.get<BundleRunRecord>(key);
    if (record === undefined || record.state !== PARKED || record.data.status !== 'Running') return;
    const run = record.data;
    if (run.parked?.waiting.approvalId !== approval.approvalId) return;
    const resumed: RunningRun = { ...run, parked: { ...run.parked, verdict } };
    const claimed = await this.#storage.records.update(key, { state: 'Queued', lease: this.#engine.lease(), data: resumed }, { states: [PARKED], version: record.version });
    if (claimed !== undefined) this.#engine.dispatch(key);
  }

  /** Just written Parked: if its approval was decided meanwhile, resume it now. */
  async parked(run: RunningRun): Promise<void> {
    const waiting = run.parked?.waiting;
    if (waiting === undefined) return;
    const approval = await this.#approvals.store.get({ ownerId: run.ownerId }, waiting.approvalId);
    if (approval !== undefined && approval.state !== 'Pending') await this.decided(approval, run.ownerId);
  }

  /** A parked run ended another way: its approval is withdrawn. */
  async withdraw(run: RunningRun): Promise<void> {
    const waiting = run.parked?.waiting;
    if (waiting === undefined) return;
    const approval = await this.#approvals.store.get({ ownerId: run.ownerId }, waiting.approvalId);
    if (approval?.state === 'Pending') await this.#approvals.withdraw(approval, run.ownerId);
  }
}
