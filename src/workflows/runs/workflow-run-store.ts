// Workflow runs, their step items, approvals and plans in the storage port, owned by the starting
// caller (foreign ≡ unknown by construction). A live run holds its lease and its workflow (one live run
// per workflow, MaxActiveRunsPerOwner per owner: both checked atomically with the insert); its plan is
// one of its journal items, written by that insert (decision 2810; a run admitted by an earlier build
// has a plan record, which expires with the run's final commit). A final run and its approvals stay for
// RunRecordTtl, then are swept (approvals by their own sweep); the plan item goes with the run.
import { LRUCache } from 'lru-cache';
import type { Owner } from '../../platform/ownership/index.js';
import type { CommitResult, InsertResult, JournalChange, RecordKey, RecordPatch, Storage, StoredRecord } from '../../platform/storage/index.js';
import { isWorkflowApproval, type WorkflowApproval, type ApprovalStore } from '../../approvals/index.js';
import type { RunEvent, RunPlan, StepState, WorkflowRunData } from './workflow-run.js';
import { isFinal } from './run-status.js';

export const RUN_COLLECTION = 'workflow-run';
const PLAN_COLLECTION = 'workflow-run-plan';
/** The run's journal item that holds its plan (step ids are UUIDs, so no step's item has this key). */
const PLAN_ITEM = 'plan';
export const LIVE_STATES: readonly string[] = ['Queued', 'Running', 'Blocked'];

export function workflowRunKey(owner: Owner, jobId: string): RecordKey {
  return { collection: RUN_COLLECTION, ownerId: owner.ownerId, id: jobId };
}

export interface RunView {
  readonly record: StoredRecord<WorkflowRunData>;
  readonly steps: ReadonlyMap<string, StepState>;
}

/** Finished runs kept in this process: a final run never changes, so polling one need not read it again. */
const FINISHED_CACHE_ENTRIES = 10_000;

export class WorkflowRunStore {
  readonly #storage: Storage;
  readonly #recordTtlMs: number;
  readonly #approvals: ApprovalStore;
  /** owner + job id → the plan of a run admitted here and not yet begun (its executor needs no read). */
  readonly #admittedPlans = new LRUCache<string, RunPlan>({ max: FINISHED_CACHE_ENTRIES });
  /** owner + job id → a final run's view, until its record expires. */
  readonly #finished = new LRUCache<string, RunView>({ max: FINISHED_CACHE_ENTRIES });

  constructor(options: { readonly storage: Storage; readonly recordTtlMs: number; readonly approvals: ApprovalStore }) {
    this.#storage = options.storage;
    this.#recordTtlMs = options.recordTtlMs;
    this.#approvals = options.approvals;
  }

  get recordTtlMs(): number {
    return this.#recordTtlMs;
  }

  /** Stores a new Queued run and its plan in one atomic insert, unless the workflow already has a live run or the owner is at the cap. */
  async admit(
    run: WorkflowRunData,
    plan: RunPlan,
    maxActivePerOwner: number,
    lease: { readonly holder: string; readonly expiresAt: number },
  ): Promise<InsertResult<WorkflowRunData>> {
    const owner = { ownerId: run.ownerId };
    // The plan, one of the run's items, is written by the same statement and transaction, only when the run is admitted.
    const admitted = await this.#storage.records.insert<WorkflowRunData>(
      { ...workflowRunKey(owner, run.jobId), scope: run.workflowId, state: run.status, createdAt: run.createdAt, lease, data: run },
      { ownerCap: { max: maxActivePerOwner, states: LIVE_STATES }, exclusiveScope: { states: LIVE_STATES } },
      undefined,
      [{ key: PLAN_ITEM, data: plan }],
    );
    if (admitted.outcome === 'inserted') this.#admittedPlans.set(`${run.ownerId}\u0000${run.jobId}`, plan);
    return admitted;
  }

  record(owner: Owner, jobId: string): Promise<StoredRecord<WorkflowRunData> | undefined> {
    return this.#storage.records.get<WorkflowRunData>(workflowRunKey(owner, jobId));
  }

  /** The run with every step's state (steps without an item are Pending); a final run from this process's cache. */
  async view(owner: Owner, jobId: string): Promise<RunView | undefined> {
    const cacheKey = `${owner.ownerId}\u0000${jobId}`;
    const cached = this.#finished.get(cacheKey);
    if (cached !== undefined && (cached.record.expiresAt ?? 0) > this.#storage.clock.now()) return cached;
    const record = await this.record(owner, jobId);
    if (record === undefined) return undefined;
    const view: RunView = { record, steps: await this.steps(workflowRunKey(owner, jobId)) };
    // Read after the record: a final record's steps are final too (the final commit wrote the last of them).
    if (isFinal(record.data.status) && record.expiresAt !== null) this.#finished.set(cacheKey, view);
    return view;
  }

  /**
   * Keeps a run this instance just made final, with every step's state as it committed them: its
   * polls here are answered without a read, as if it had been read once (the cache `view` fills).
   * The map is handed over, not copied: the finished run's executor never changes it again.
   */
  remember(record: StoredRecord<WorkflowRunData>, steps: ReadonlyMap<string, StepState>): void {
    if (isFinal(record.data.status) && record.expiresAt !== null) this.#finished.set(`${record.ownerId}\u0000${record.id}`, { record, steps });
  }

  async steps(key: RecordKey): Promise<Map<string, StepState>> {
    return (await this.itemsOf(key)).steps;
  }

  /** The run's items in one read: its step states, and its plan item when it has one. */
  async itemsOf(key: RecordKey): Promise<{ readonly steps: Map<string, StepState>; readonly plan?: RunPlan }> {
    const steps = new Map<string, StepState>();
    let plan: RunPlan | undefined;
    for (const item of await this.#storage.journal.items<unknown>(key)) {
      if (item.key === PLAN_ITEM) plan = item.data as RunPlan;
      else steps.set(item.key, item.data as StepState);
    }
    return plan === undefined ? { steps } : { steps, plan };
  }

  /**
   * The run's plan: the one admitted here (once: a later execution, after a takeover or a resume,
   * reads it), else its plan item (from `items` when the caller read them already), else — a run
   * admitted by a build before decision 2810 — its plan record (`record: true`: the run's final
   * commit expires it).
   */
  async plan(owner: Owner, jobId: string, items?: { readonly plan?: RunPlan }): Promise<{ readonly plan: RunPlan; readonly record: boolean } | undefined> {
    const cacheKey = `${owner.ownerId}\u0000${jobId}`;
    const admitted = this.#admittedPlans.get(cacheKey);
    if (admitted !== undefined) {
      this.#admittedPlans.delete(cacheKey);
      return { plan: admitted, record: false };
    }
    const item = (items ?? (await this.itemsOf(workflowRunKey(owner, jobId)))).plan;
    if (item !== undefined) return { plan: item, record: false };
    const stored = await this.#storage.records.get<RunPlan>({ collection: PLAN_COLLECTION, ownerId: owner.ownerId, id: jobId });
    return stored === undefined ? undefined : { plan: stored.data, record: true };
  }

  /** The caller's runs, newest first, optionally of one workflow and/or in one status. */
  async list(
    owner: Owner,
    filter: { readonly workflowId?: string; readonly status?: string; readonly limit: number; readonly cursor: string | null },
  ): Promise<{ records: StoredRecord<WorkflowRunData>[]; nextCursor: string | null }> {
    const page = await this.#storage.records.list<WorkflowRunData>(RUN_COLLECTION, owner.ownerId, {
      limit: filter.limit,
      cursor: filter.cursor,
      ...(filter.workflowId === undefined ? {} : { scope: filter.workflowId }),
      ...(filter.status === undefined ? {} : { states: [filter.status] }),
    });
    return { records: page.records, nextCursor: page.nextCursor };
  }

  lastSeq(key: RecordKey): Promise<number> {
    return this.#storage.journal.lastSeq(key);
  }

  /** Events after `after`, oldest first (what a re-attaching watcher is sent). */
  events(key: RecordKey, after: number, limit: number): Promise<Array<{ seq: number; event: RunEvent }>> {
    return this.#storage.journal.events<RunEvent>(key, after, limit);
  }

  get journal(): Storage['journal'] {
    return this.#storage.journal;
  }

  async hasLiveRun(owner: Owner, workflowId: string): Promise<boolean> {
    const page = await this.#storage.records.list(RUN_COLLECTION, owner.ownerId, { scope: workflowId, states: LIVE_STATES, limit: 1 });
    return page.records.length > 0;
  }

  /**
   * Commits step items, events and a run-record patch atomically; `committed` is false when the guard
   * refused. The journal's own result, not a copy of it: every workflow step commits through here.
   */
  commit(key: RecordKey, change: JournalChange<StepState, WorkflowRunData>): Promise<CommitResult<WorkflowRunData>> {
    return this.#storage.journal.commit<StepState, WorkflowRunData>(key, change);
  }

  /** The patch that makes a run final: it drops its lease and, with its plan and approvals, expires RunRecordTtl from now. */
  finalPatch(run: WorkflowRunData, now: number): RecordPatch<WorkflowRunData> {
    return { state: run.status, data: run, lease: null, expiresAt: now + this.#recordTtlMs };
  }

  /** What the commit that makes a run final also expires when its plan is a record (an earlier build's run): the plan, RunRecordTtl from now, as the run. */
  endsWith(run: WorkflowRunData, now: number): { readonly keys: readonly RecordKey[]; readonly at: number } {
    return { keys: [{ collection: PLAN_COLLECTION, ownerId: run.ownerId, id: run.jobId }], at: now + this.#recordTtlMs };
  }

  /** After a run became final: its approvals (and their routes) expire with it. */
  async expireApprovals(run: WorkflowRunData, now: number): Promise<void> {
    await this.#approvals.expireRun({ ownerId: run.ownerId }, run.jobId, now + this.#recordTtlMs);
  }

  // Approvals (kept by the approval contract, src/approvals).

  async approvals(owner: Owner, jobId: string): Promise<WorkflowApproval[]> {
    return (await this.#approvals.forRun(owner, jobId)).filter(isWorkflowApproval);
  }

  /** The owner's approval with this id when it is a workflow run's. */
  async approval(owner: Owner, approvalId: string): Promise<WorkflowApproval | undefined> {
    const approval = await this.#approvals.get(owner, approvalId);
    return approval !== undefined && isWorkflowApproval(approval) ? approval : undefined;
  }

  async sweep(): Promise<number> {
    const runs = await this.#storage.records.sweep(RUN_COLLECTION);
    await this.#storage.records.sweep(PLAN_COLLECTION);
    return runs.length;
  }
}

