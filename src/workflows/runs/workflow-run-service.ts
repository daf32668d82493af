// Workflow runs without HTTP: start (202: admitted under the starting caller's envelope with its plan,
// one live run per workflow and MaxActiveRunsPerOwner checked atomically, then dispatched by the run
// engine), poll, list, cancel per SPEC.md's table, answer approvals, watch, sweep. Every operation works
// from any instance: state is read from the storage, cancels and decisions reach the executing
// instance through the engine's messages.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { Logger } from '../../platform/log/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import { followJournal, type RunEngine } from '../../runs/index.js';
import type { DefinitionStore } from '../definition/definition-store.js';
import type { JsonObject } from '../definition/workflow-definition.js';
import { buildGraph, flattenGraph } from '../engine/build-graph.js';
import {
  approvalAlreadyAnswered,
  approvalNotFound,
  ownerRunCapReached,
  runAlreadyFinal,
  runTooLarge,
  runNotFound,
  workflowHasLiveRun,
  workflowNotFound,
} from '../problems.js';
import { decided, expireDue } from './approval-desk.js';
import { checkRunSize } from '../steps/check-run-size.js';
import type { StepRunnerDependencies } from '../steps/create-step-runners.js';
import { loadSubPlans } from './load-sub-plans.js';
import { APPROVAL_MESSAGE, RUN_CANCELLED, type RunExecutor } from './run-executor.js';
import { projectRun, type RunProjection } from './run-projection.js';
import { isFinal, type RunStatus } from './run-status.js';
import { LIVE_STATES, runKey, type RunStore, type RunView } from './run-store.js';
import type { ApprovalData, WorkflowRunData } from './workflow-run.js';
import { isoInstant } from '../../platform/clock/index.js';

/** How long cancelling a Blocked run waits for it to stop (it has nothing running, so it stops at once). */
const STOP_WAIT_MS = 5_000;

export interface RunServiceDependencies {
  readonly definitions: DefinitionStore;
  readonly runs: RunStore;
  readonly executor: RunExecutor;
  readonly engine: RunEngine;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly maxActiveRunsPerOwner: number;
  /** Size bounds a run must fit when its size is knowable at start (rendered templates, expansion). */
  readonly stepLimits: StepRunnerDependencies['limits'];
}

export interface Starter extends Owner {
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
}

export interface CancelResult {
  readonly stopped: boolean;
  readonly withdrawnApprovals: number;
}

export interface PendingApproval {
  readonly approvalId: string;
  readonly workflowId: string;
  readonly jobId: string;
  readonly stepName: string;
  readonly message: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}


export class RunService {
  readonly #d: RunServiceDependencies;

  constructor(deps: RunServiceDependencies) {
    this.#d = deps;
  }

  async start(starter: Starter, workflowId: string, input: JsonObject | undefined): Promise<{ jobId: string; workflowId: string }> {
    const { definitions, ids, clock, engine } = this.#d;
    const workflow = await definitions.find(starter, workflowId);
    if (workflow === undefined) throw workflowNotFound();
    const subPlans = await loadSubPlans(workflow, (id) => definitions.find(starter, id));
    const graph = buildGraph(workflow, subPlans);
    const runInput = { ...workflow.input, ...input };
    const tooLarge = checkRunSize(graph, runInput, this.#d.stepLimits);
    if (tooLarge !== undefined) throw runTooLarge(tooLarge);
    const jobId = ids.opaque();
    const run: WorkflowRunData = {
      jobId,
      workflowId,
      ownerId: starter.ownerId,
      envelope: starter.envelope,
      input: runInput,
      steps: flattenGraph(graph).map((step) => ({ id: step.id, name: step.path, type: step.type })),
      createdAt: clock.now(),
      status: 'Queued',
      startedAt: null,
      completedAt: null,
      error: null,
      cancelRequested: false,
      usage: { inputTokens: 0, outputTokens: 0 },
      parkedSeq: null,
      withdrawnApprovals: null,
    };
    const outcome = await this.#d.runs.admit(run, { workflow, subPlans: [...subPlans.values()] }, this.#d.maxActiveRunsPerOwner, engine.lease());
    if (outcome === 'scope-busy') throw workflowHasLiveRun();
    if (outcome !== 'inserted') throw ownerRunCapReached(this.#d.maxActiveRunsPerOwner);
    engine.dispatch(runKey(starter, jobId));
    return { jobId, workflowId };
  }

  /** The caller's run of that workflow, with expired approvals settled; foreign ≡ unknown. */
  async view(owner: Owner, workflowId: string, jobId: string): Promise<RunView> {
    const view = await this.#d.runs.view(owner, jobId);
    if (view === undefined || view.record.data.workflowId !== workflowId) throw runNotFound();
    if (!isFinal(view.record.data.status)) {
      const approvals = await this.#d.runs.approvals(owner, jobId);
      if (await expireDue(this.#d.runs, owner, approvals, this.#d.clock.now())) await this.#d.engine.notify(runKey(owner, jobId), APPROVAL_MESSAGE);
    }
    return view;
  }

  async poll(owner: Owner, workflowId: string, jobId: string): Promise<RunProjection> {
    const view = await this.view(owner, workflowId, jobId);
    return projectRun(view, await this.#pending(owner, view.record.data));
  }

  /** The caller's runs across their workflows, newest first; filters optional. */
  async list(
    owner: Owner,
    filter: { readonly workflowId?: string; readonly status?: RunStatus; readonly limit: number; readonly cursor: string | null },
  ): Promise<{ runs: RunProjection[]; nextCursor: string | null }> {
    const page = await this.#d.runs.list(owner, filter);
    const runs = await Promise.all(
      page.records.map(async (record) => projectRun({ record, steps: await this.#d.runs.steps(runKey(owner, record.id)) }, await this.#pending(owner, record.data))),
    );
    return { runs, nextCursor: page.nextCursor };
  }

  /** The caller's pending approvals across all their runs, newest first. */
  async pendingApprovals(owner: Owner, page: { readonly limit: number; readonly cursor: string | null }): Promise<{ approvals: PendingApproval[]; nextCursor: string | null }> {
    const found = await this.#d.runs.pendingApprovals(owner, page);
    const now = this.#d.clock.now();
    return {
      approvals: found.approvals
        .filter((a) => a.deadline === null || a.deadline > now)
        .map((a) => ({
          approvalId: a.approvalId,
          workflowId: a.workflowId,
          jobId: a.jobId,
          stepName: a.stepName,
          message: a.message,
          createdAt: isoInstant(a.createdAt),
          expiresAt: a.deadline === null ? null : isoInstant(a.deadline),
        })),
      nextCursor: found.nextCursor,
    };
  }

  async cancel(owner: Owner, workflowId: string, jobId: string): Promise<CancelResult> {
    const { runs, engine, executor } = this.#d;
    const key = runKey(owner, jobId);
    const view = await this.view(owner, workflowId, jobId);
    const run = view.record.data;
    if (isFinal(run.status)) throw runAlreadyFinal();
    if (run.status === 'Queued') {
      // Not started anywhere: cancelled outright, unless it started in the meantime (then as below).
      if (await executor.finish(key, { ...run, cancelRequested: true }, 'Cancelled', RUN_CANCELLED, null, null)) {
        engine.withdraw(key);
        return { stopped: true, withdrawnApprovals: 0 };
      }
    }
    const current = (await runs.record(owner, jobId))?.data ?? run;
    if (isFinal(current.status)) throw runAlreadyFinal();
    const pending = (await runs.approvals(owner, jobId)).filter((a) => a.state === 'Pending').length;
    const wasBlocked = current.status === 'Blocked';
    if (!current.cancelRequested) {
      await runs.commit(key, { record: { patch: { data: { ...current, cancelRequested: true } }, guard: { states: LIVE_STATES } } });
    }
    await engine.cancel(key, RUN_CANCELLED);
    // A Blocked run has nothing running, so it stops at once: report what was actually withdrawn.
    // A Running run may take a moment; its pending approvals are withdrawn once it has stopped.
    if (wasBlocked) {
      const final = await this.#untilFinal(owner, jobId, STOP_WAIT_MS);
      return { stopped: false, withdrawnApprovals: final?.withdrawnApprovals ?? pending };
    }
    return { stopped: false, withdrawnApprovals: pending };
  }

  async decide(
    owner: Owner,
    ids: { readonly workflowId: string; readonly jobId: string; readonly approvalId: string },
    decision: 'Approve' | 'Reject',
    comment: string | null,
  ): Promise<void> {
    const view = await this.view(owner, ids.workflowId, ids.jobId);
    const approval = await this.#d.runs.approval(owner, ids.approvalId);
    if (approval === undefined || approval.jobId !== ids.jobId) throw approvalNotFound();
    const run = view.record.data;
    if (run.cancelRequested || isFinal(run.status) || approval.state !== 'Pending') throw approvalAlreadyAnswered();
    if (!(await this.#d.runs.settleApproval(owner, decided(approval, decision, comment, owner.ownerId, this.#d.clock.now())))) {
      throw approvalAlreadyAnswered();
    }
    await this.#d.engine.notify(runKey(owner, ids.jobId), APPROVAL_MESSAGE);
    this.#d.logger.info({ jobId: ids.jobId, approvalId: ids.approvalId, decision }, 'workflow approval decided');
  }

  sweep(): Promise<number> {
    return this.#d.runs.sweep();
  }

  async #pending(owner: Owner, run: WorkflowRunData): Promise<ApprovalData[]> {
    if (isFinal(run.status) || run.cancelRequested) return [];
    return (await this.#d.runs.approvals(owner, run.jobId)).filter((a) => a.state === 'Pending');
  }

  /** Waits (following the run's events) until the run is final, or `timeoutMs` passed. */
  async #untilFinal(owner: Owner, jobId: string, timeoutMs: number): Promise<WorkflowRunData | undefined> {
    const key = runKey(owner, jobId);
    const signal = AbortSignal.timeout(timeoutMs);
    const after = await this.#d.runs.lastSeq(key);
    const now = (await this.#d.runs.record(owner, jobId))?.data;
    if (now === undefined || isFinal(now.status)) return now;
    for await (const { event } of followJournal<{ type: string }>(this.#d.runs.journal, key, after, signal)) {
      if (event.type === 'FINISHED') break;
    }
    return (await this.#d.runs.record(owner, jobId))?.data;
  }
}
