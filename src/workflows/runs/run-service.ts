// Workflow runs without HTTP: start (202: hold the workflow, capture the starting caller's envelope,
// store the run Queued and hand it to the dispatcher), poll, cancel per SPEC.md's table, answer
// approvals, attach watchers, sweep, and stop everything at shutdown. Execution appends numbered
// frames to the run's log; streams join that log.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { Logger } from '../../platform/log/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import type { DefinitionStore } from '../definition/definition-store.js';
import type { JsonObject } from '../definition/workflow-definition.js';
import { buildGraph } from '../engine/build-graph.js';
import { executeWorkflow } from '../engine/execute-workflow.js';
import { STEP_CANCELLED } from '../engine/step-errors.js';
import type { GraphOutcome } from '../engine/step-runner.js';
import type { Timers } from '../engine/timers.js';
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
import { checkRunSize } from '../steps/check-run-size.js';
import { createStepRunners, type StepRunnerDependencies } from '../steps/create-step-runners.js';
import { ApprovalDesk } from './approval-desk.js';
import { createRun } from './create-run.js';
import type { LiveRuns } from './live-runs.js';
import { loadSubPlans } from './load-sub-plans.js';
import { logStepRunners } from './log-step-runners.js';
import { RunRecorder } from './run-recorder.js';
import { isFinal, type FinalStatus } from './run-status.js';
import type { RunStore } from './run-store.js';
import type { WorkflowRun } from './workflow-run.js';
import { withinGrace } from '../within-grace.js';

export const RUN_CANCELLED = STEP_CANCELLED;
export const RUN_UNHANDLED = 'workflow_run.unhandled_exception';
/** How long cancelling a Blocked run waits for it to stop (it has nothing running, so it stops at once). */
const STOP_WAIT_MS = 5_000;

export interface RunServiceDependencies {
  readonly definitions: DefinitionStore;
  readonly runs: RunStore;
  readonly live: LiveRuns;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timers: Timers;
  readonly steps: StepRunnerDependencies;
  readonly logger: Logger;
  readonly maxActiveRunsPerOwner: number;
  /** Frames each run's log retains for re-attaching watchers. */
  readonly logRetain: number;
  /** Hands a started run to execution; by default on a later event-loop turn (the run is Queued until then). */
  readonly dispatch?: (work: () => void) => void;
}

export interface Starter extends Owner {
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
}

export interface CancelResult {
  readonly stopped: boolean;
  readonly withdrawnApprovals: number;
}

export class RunService {
  readonly #deps: RunServiceDependencies;
  readonly #dispatch: (work: () => void) => void;
  readonly #desks = new WeakMap<WorkflowRun, ApprovalDesk>();
  readonly #active = new Set<WorkflowRun>();
  readonly #withdrawn = new WeakMap<WorkflowRun, number>();

  constructor(deps: RunServiceDependencies) {
    this.#deps = deps;
    this.#dispatch = deps.dispatch ?? ((work) => void setImmediate(work));
  }

  async start(starter: Starter, workflowId: string, input: JsonObject | undefined): Promise<WorkflowRun> {
    const { definitions, live, ids, clock } = this.#deps;
    const workflow = await definitions.find(starter, workflowId);
    if (workflow === undefined) throw workflowNotFound();
    const subPlans = await loadSubPlans(workflow, (id) => definitions.find(starter, id));
    const graph = buildGraph(workflow, subPlans);
    const runInput = { ...workflow.input, ...input };
    const tooLarge = checkRunSize(graph, runInput, this.#deps.steps.limits);
    if (tooLarge !== undefined) throw runTooLarge(tooLarge);
    const jobId = ids.opaque();
    const hold = live.tryHold(starter.ownerId, workflowId, jobId);
    if (hold === 'workflow-busy') throw workflowHasLiveRun();
    if (hold === 'owner-cap') throw ownerRunCapReached(this.#deps.maxActiveRunsPerOwner);
    const run = createRun({
      jobId,
      workflowId,
      ownerId: starter.ownerId,
      envelope: starter.envelope,
      input: runInput,
      graph,
      createdAt: clock.now(),
      logRetain: this.#deps.logRetain,
    });
    this.#desks.set(run, new ApprovalDesk(run.approvals, { ids, clock }));
    this.#active.add(run);
    await this.#deps.runs.putLive(run);
    this.#dispatch(() => void this.#execute(run));
    return run;
  }

  /** The caller's run of that workflow, with expired approvals settled; foreign ≡ unknown. */
  async find(owner: Owner, workflowId: string, jobId: string): Promise<WorkflowRun> {
    const run = await this.#deps.runs.find(owner, jobId);
    if (run === undefined || run.workflowId !== workflowId) throw runNotFound();
    this.#desks.get(run)?.expireDue();
    return run;
  }

  async cancel(owner: Owner, workflowId: string, jobId: string): Promise<CancelResult> {
    const run = await this.find(owner, workflowId, jobId);
    if (isFinal(run.status)) throw runAlreadyFinal();
    if (run.status === 'Queued') {
      run.cancelRequested = true;
      await this.#finish(run, 'Cancelled', RUN_CANCELLED);
      return { stopped: true, withdrawnApprovals: 0 };
    }
    const desk = this.#desks.get(run);
    const pending = desk?.pending().length ?? 0;
    const wasBlocked = run.status === 'Blocked';
    if (!run.cancelRequested) {
      run.cancelRequested = true;
      run.controller.abort(new DOMException(RUN_CANCELLED, 'AbortError'));
    }
    // A Blocked run has nothing running, so it stops at once: report what was actually withdrawn.
    // A Running run may take a moment; its pending approvals are withdrawn once it has stopped.
    if (wasBlocked) {
      await withinGrace(run.settled, STOP_WAIT_MS);
      return { stopped: false, withdrawnApprovals: this.#withdrawn.get(run) ?? pending };
    }
    return { stopped: false, withdrawnApprovals: pending };
  }

  async decide(
    owner: Owner,
    ids: { readonly workflowId: string; readonly jobId: string; readonly approvalId: string },
    decision: 'Approve' | 'Reject',
    comment: string | null,
  ): Promise<void> {
    const run = await this.find(owner, ids.workflowId, ids.jobId);
    const approval = run.approvals.find((a) => a.approvalId === ids.approvalId);
    if (approval === undefined) throw approvalNotFound();
    const desk = this.#desks.get(run);
    if (run.cancelRequested || isFinal(run.status) || desk === undefined) throw approvalAlreadyAnswered();
    const result = desk.decide(ids.approvalId, decision, comment, owner.ownerId);
    if (result === 'not-found') throw approvalNotFound();
    if (result === 'conflict') throw approvalAlreadyAnswered();
    this.#deps.logger.info({ jobId: run.jobId, approvalId: ids.approvalId, decision }, 'workflow approval decided');
  }

  async sweep(): Promise<void> {
    for (const run of this.#active) this.#desks.get(run)?.expireDue();
    await this.#deps.runs.sweep();
  }

  /** Stops every live run (shutdown); resolves once they have settled or `graceMs` passed. */
  async shutdown(graceMs: number): Promise<void> {
    const runs = [...this.#active];
    for (const run of runs) {
      if (run.status === 'Queued') {
        run.cancelRequested = true;
        await this.#finish(run, 'Cancelled', RUN_CANCELLED);
      } else if (!run.cancelRequested) {
        run.cancelRequested = true;
        run.controller.abort(new DOMException(RUN_CANCELLED, 'AbortError'));
      }
    }
    await withinGrace(Promise.all(runs.map((run) => run.settled)), graceMs);
  }

  async #execute(run: WorkflowRun): Promise<void> {
    if (run.status !== 'Queued') return;
    const { clock, timers, logger } = this.#deps;
    run.status = 'Running';
    run.startedAt = clock.now();
    const runners = logStepRunners(createStepRunners(this.#deps.steps, run), logger, run);
    let outcome: GraphOutcome | undefined;
    try {
      outcome = await executeWorkflow(run.graph, run.input, run.controller.signal, {
        runners,
        clock,
        timers,
        gates: this.#desks.get(run)!,
        observer: new RunRecorder(run),
        onRunnerError: (step, error) => logger.error({ jobId: run.jobId, step: step.path, err: error }, 'workflow step runner threw'),
      });
    } catch (error) {
      logger.error({ jobId: run.jobId, err: error }, 'workflow run failed unexpectedly');
    }
    if (outcome === undefined) await this.#finish(run, 'Failed', RUN_UNHANDLED);
    else if (outcome.status === 'Succeeded') await this.#finish(run, 'Succeeded', null);
    else if (outcome.status === 'Cancelled') await this.#finish(run, 'Cancelled', RUN_CANCELLED);
    else await this.#finish(run, 'Failed', `The step '${outcome.step.path}' failed: ${outcome.error}`);
  }

  /** Final bookkeeping, in order: status, approvals withdrawn (after the stop), FINISHED, release. */
  async #finish(run: WorkflowRun, status: FinalStatus, error: string | null): Promise<void> {
    if (isFinal(run.status)) return;
    run.status = status;
    run.error = error;
    run.completedAt = this.#deps.clock.now();
    const withdrawn = this.#desks.get(run)?.withdrawPending() ?? 0;
    this.#withdrawn.set(run, withdrawn);
    run.log.append((sequence) => ({ type: 'FINISHED', sequence, status, ...(error !== null ? { error } : {}) }));
    this.#deps.live.release(run.ownerId, run.workflowId, run.jobId);
    this.#active.delete(run);
    await this.#deps.runs.putFinal(run);
    run.markSettled();
    this.#deps.logger.info(
      { jobId: run.jobId, workflowId: run.workflowId, status, withdrawnApprovals: withdrawn, usage: run.usage },
      'workflow run finished',
    );
  }
}
