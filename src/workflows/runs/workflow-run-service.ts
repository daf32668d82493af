// Workflow runs without HTTP: start (400 with diagnostics when the starter's envelope does not grant a
// step's tool or the host has no chat model for an LlmCall; else 202: admitted under the starting
// caller's envelope with its plan, one live run per workflow and MaxActiveRunsPerOwner checked atomically, then dispatched by the run
// engine), poll, list, cancel per SPEC.md's table, answer approvals, watch, sweep. Every operation works
// from any instance: state is read from the storage, cancels and decisions reach the executing
// instance through the engine's typed messages.
import type { ApprovalData, Approvals } from '../../approvals/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import { ProblemError } from '../../platform/problems/index.js';
import type { AccessPolicy } from '../../platform/access/index.js';
import type { Principal } from '../../platform/auth/index.js';
import type { Logger } from '../../platform/log/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import type { NotGrantedBeforeCall } from '../../tools/index.js';
import { followJournal, type RunEngine } from '../../runs/index.js';
import type { DefinitionStore } from '../definition/definition-store.js';
import type { JsonObject } from '../definition/workflow-definition.js';
import { flattenGraph, graphOf } from '../engine/build-graph.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { madeOnce } from '../../platform/memo/index.js';
import {
  approvalAlreadyAnswered,
  approvalNotFound,
  ownerRunCapReached,
  runAlreadyFinal,
  runCannotStart,
  runTooLarge,
  runNotFound,
  workflowHasLiveRun,
  workflowNotFound,
} from '../problems.js';
import { checkRunSize } from '../steps/check-run-size.js';
import { checkRunStart, type StartHost } from './check-run-start.js';
import type { StepRunnerDependencies } from '../steps/create-step-runners.js';
import { loadSubPlans } from './load-sub-plans.js';
import { projectRun, type RunProjection } from './run-projection.js';
import { isFinal, type RunStatus } from './run-status.js';
import { LIVE_STATES, workflowRunKey, type WorkflowRunStore, type RunView } from './workflow-run-store.js';
import type { RunStepRef, WorkflowApproval, WorkflowRunData } from './workflow-run.js';

/** How long cancelling a Blocked run waits for it to stop (it has nothing running, so it stops at once). */
const STOP_WAIT_MS = 5_000;

export interface WorkflowRunServiceDependencies {
  readonly definitions: DefinitionStore;
  readonly runs: WorkflowRunStore;
  readonly engine: RunEngine;
  readonly access: AccessPolicy;
  readonly approvals: Approvals;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly maxActiveRunsPerOwner: number;
  /** Size bounds a run must fit when its size is knowable at start (rendered templates, expansion). */
  readonly stepLimits: StepRunnerDependencies['limits'];
  /** What the host offers a run (its tools, a chat model), checked at start with the starter's envelope. */
  readonly host: StartHost;
  /** Audits a tool refused at start as not granted (GovernedCalls.notGrantedBeforeCall). */
  readonly notGranted: (denial: NotGrantedBeforeCall) => void;
}

export interface CancelResult {
  readonly stopped: boolean;
  readonly withdrawnApprovals: number;
}



/** The run's step list of a compiled graph's steps: made once for a frozen (cached) graph, which every run of its definition shares. */
const stepRefs = new WeakMap<readonly GraphStep[], readonly RunStepRef[]>();
function stepRefsOf(steps: readonly GraphStep[]): readonly RunStepRef[] {
  return madeOnce(stepRefs, steps, (list) => Object.freeze(list.map((step): RunStepRef => Object.freeze({ id: step.id, name: step.path, type: step.type }))));
}

export class WorkflowRunService {
  readonly #deps: WorkflowRunServiceDependencies;

  constructor(deps: WorkflowRunServiceDependencies) {
    this.#deps = deps;
  }

  async start(starter: Principal, workflowId: string, input: JsonObject | undefined, requestId: string | null = null): Promise<{ jobId: string; workflowId: string }> {
    const { definitions, ids, clock, engine } = this.#deps;
    const workflow = await definitions.find(starter, workflowId);
    if (workflow === undefined) throw workflowNotFound();
    const subPlans = await loadSubPlans(workflow, (id) => definitions.find(starter, id));
    const graph = graphOf(workflow, subPlans);
    const runInput = { ...workflow.input, ...input };
    const tooLarge = checkRunSize(graph, runInput, this.#deps.stepLimits);
    if (tooLarge !== undefined) throw runTooLarge(tooLarge);
    const jobId = ids.opaque();
    const envelope = this.#deps.access.authorize(starter, 'workflows.run', { jobId, requestId });
    const steps = flattenGraph(graph);
    const check = checkRunStart(steps, envelope, this.#deps.host);
    // Each tool refused is a governed denial on the workflow surface: audited and counted as a call would be.
    for (const { tool, operation } of check.notGranted) {
      this.#deps.notGranted({ surface: 'workflow', ownerId: starter.ownerId, envelope, toolName: tool, operation, requestId });
    }
    const [refused, ...more] = check.diagnostics;
    if (refused !== undefined) throw runCannotStart([refused, ...more]);
    const run: WorkflowRunData = {
      jobId,
      workflowId,
      ownerId: starter.ownerId,
      envelope,
      input: runInput,
      steps: stepRefsOf(steps),
      createdAt: clock.now(),
      status: 'Queued',
      startedAt: null,
      completedAt: null,
      error: null,
      cancelRequested: false,
      usage: { inputTokens: 0, outputTokens: 0 },
      parkedSeq: null,
      withdrawnApprovals: null,
      requestedBy: starter.displayName ?? null,
    };
    const plan = { workflow, subPlans: [...subPlans.values()] };
    // Admitted and dispatched in one insert: begun already when this instance has a slot for it now.
    const admitted = await engine.startRun(workflowRunKey(starter, jobId), { state: run.status, createdAt: run.createdAt, data: run }, (first) =>
      this.#deps.runs.admit(first.data, plan, this.#deps.maxActiveRunsPerOwner, first.lease),
    );
    if (admitted.outcome === 'scope-busy') throw workflowHasLiveRun();
    if (admitted.outcome !== 'inserted') throw ownerRunCapReached(this.#deps.maxActiveRunsPerOwner);
    return { jobId, workflowId };
  }

  /** The caller's run of that workflow, with expired approvals settled; foreign ≡ unknown. */
  async view(owner: Owner, workflowId: string, jobId: string): Promise<RunView> {
    return (await this.#viewWithPending(owner, workflowId, jobId)).view;
  }

  async poll(owner: Owner, workflowId: string, jobId: string): Promise<RunProjection> {
    const { view, pending } = await this.#viewWithPending(owner, workflowId, jobId);
    const run = view.record.data;
    return projectRun(view, isFinal(run.status) || run.cancelRequested ? [] : (pending ?? (await this.#pending(owner, run))));
  }

  /** The run, with expired approvals settled; for a live run also its approvals still pending, from the same read. */
  async #viewWithPending(owner: Owner, workflowId: string, jobId: string): Promise<{ readonly view: RunView; readonly pending?: WorkflowApproval[] }> {
    const view = await this.#deps.runs.view(owner, jobId);
    if (view === undefined || view.record.data.workflowId !== workflowId) throw runNotFound();
    if (isFinal(view.record.data.status)) return { view };
    // Expiring tells the run (the approval contract's hook), wherever it executes.
    const approvals = await this.#deps.runs.approvals(owner, jobId);
    const expired = new Set((await this.#deps.approvals.expireDue(approvals, owner.ownerId)).map((a) => a.approvalId));
    return { view, pending: approvals.filter((a) => a.state === 'Pending' && !expired.has(a.approvalId)) };
  }

  /** The caller's runs across their workflows, newest first; filters optional. */
  async list(
    owner: Owner,
    filter: { readonly workflowId?: string; readonly status?: RunStatus; readonly limit: number; readonly cursor: string | null },
  ): Promise<{ runs: RunProjection[]; nextCursor: string | null }> {
    const page = await this.#deps.runs.list(owner, filter);
    const runs = await Promise.all(
      page.records.map(async (record) => projectRun({ record, steps: await this.#deps.runs.steps(workflowRunKey(owner, record.id)) }, await this.#pending(owner, record.data))),
    );
    return { runs, nextCursor: page.nextCursor };
  }

  async cancel(owner: Owner, workflowId: string, jobId: string): Promise<CancelResult> {
    const { runs, engine } = this.#deps;
    const key = workflowRunKey(owner, jobId);
    const view = await this.view(owner, workflowId, jobId);
    const run = view.record.data;
    if (isFinal(run.status)) throw runAlreadyFinal();
    // Not started anywhere: the engine ends it outright, unless it started in the meantime (then as below).
    if (run.status === 'Queued' && (await engine.cancel(key, { onlyIfQueued: true })) === 'ended') return { stopped: true, withdrawnApprovals: 0 };
    const current = (await runs.record(owner, jobId))?.data ?? run;
    if (isFinal(current.status)) throw runAlreadyFinal();
    const pending = (await runs.approvals(owner, jobId)).filter((a) => a.state === 'Pending').length;
    const wasBlocked = current.status === 'Blocked';
    if (!current.cancelRequested) {
      await runs.commit(key, { record: { patch: { data: { ...current, cancelRequested: true } }, guard: { states: LIVE_STATES } } });
    }
    await engine.cancel(key);
    // A Blocked run has nothing running, so it stops at once: report what was actually withdrawn.
    // A Running run may take a moment; its pending approvals are withdrawn once it has stopped.
    if (wasBlocked) {
      const final = await this.#untilFinal(owner, jobId, STOP_WAIT_MS);
      return { stopped: false, withdrawnApprovals: final?.withdrawnApprovals ?? pending };
    }
    return { stopped: false, withdrawnApprovals: pending };
  }

  /**
   * §6's route: a pending approval of this run, decided through the approval contract (the same
   * separation of duties, audit and wake-up); any answer once the run stopped or the approval was
   * decided is a 409, as it always was.
   */
  async decide(
    principal: Principal,
    ids: { readonly workflowId: string; readonly jobId: string; readonly approvalId: string },
    decision: 'Approve' | 'Reject',
    comment: string | null,
    requestId: string | null = null,
  ): Promise<void> {
    const view = await this.view(principal, ids.workflowId, ids.jobId);
    const run = view.record.data;
    const within = (approval: ApprovalData): boolean => approval.runKind === 'workflow' && approval.jobId === ids.jobId && approval.workflowId === ids.workflowId;
    const approval = await this.#deps.runs.approval(principal, ids.approvalId);
    if (approval === undefined || !within(approval)) throw approvalNotFound();
    if (run.cancelRequested || isFinal(run.status)) throw approvalAlreadyAnswered();
    try {
      await this.#deps.approvals.decide(principal, ids.approvalId, { decision, comment }, { requestId, within, strict: true });
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'conflict') throw approvalAlreadyAnswered();
      throw error;
    }
  }

  sweep(): Promise<number> {
    return this.#deps.runs.sweep();
  }

  async #pending(owner: Owner, run: WorkflowRunData): Promise<WorkflowApproval[]> {
    if (isFinal(run.status) || run.cancelRequested) return [];
    return (await this.#deps.runs.approvals(owner, run.jobId)).filter((a) => a.state === 'Pending');
  }

  /** Waits (following the run's events) until the run is final, or `timeoutMs` passed. */
  async #untilFinal(owner: Owner, jobId: string, timeoutMs: number): Promise<WorkflowRunData | undefined> {
    const key = workflowRunKey(owner, jobId);
    const signal = AbortSignal.timeout(timeoutMs);
    const after = await this.#deps.runs.lastSeq(key);
    const now = (await this.#deps.runs.record(owner, jobId))?.data;
    if (now === undefined || isFinal(now.status)) return now;
    for await (const { event } of followJournal<{ type: string }>(this.#deps.runs.journal, key, after, signal)) {
      if (event.type === 'FINISHED') break;
    }
    return (await this.#deps.runs.record(owner, jobId))?.data;
  }
}
