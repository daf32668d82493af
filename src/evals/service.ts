// The eval use cases without HTTP: list datasets, start a run (gates, ceilings and dataset checks all
// before anything is queued; the per-owner cap atomically with the insert), poll, list, cancel and the
// JUnit report, from any instance. Runs are executed by the shared run engine (runs/eval-run-kind.ts)
// under the envelope captured at start; each judged case is a checkpoint, so a run taken over keeps them.
import type { AccessPolicy } from '../platform/access/index.js';
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { EvaluationConfig } from '../platform/config/types.js';
import type { RunEngine } from '../runs/index.js';
import { listDatasetFiles } from './datasets/list-dataset-files.js';
import { loadDatasets, type OwnDatasetResolver } from './datasets/load-datasets.js';
import type { EvalRunData } from './eval-run.js';
import { bundlesDisabled, HANDLE_NOT_FOUND_DETAIL, type BundleTurns } from '../bundles/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { caseOutcomes, type Baseline } from './report/comparison.js';
import { baselineNotFound, ceilingBreached, evalsDisabled, reportReclaimed, runFinished, runNotFinished, runNotFound } from './problems.js';
import { junitXml } from './report/junit-xml.js';
import { planExecutions } from './runner/plan-executions.js';
import type { ManifestLog } from '../agent/index.js';
import { readRunOptions, readStartRequest } from './run-options.js';
import { filedRunResponse, liveRunResponse, statusUrl } from './run-response.js';
import type { CancelEvalRunResponse, EvalRunResponse } from './schemas.js';
import type { EvalStore } from './store/eval-store.js';
import { evalRunKey } from './store/eval-store.js';

export interface EvalServiceDeps {
  readonly config: EvaluationConfig;
  readonly access: AccessPolicy;
  readonly store: EvalStore;
  /** The callers' own datasets (`mine/…` names, DESIGN.md §19). */
  readonly ownDatasets: OwnDatasetResolver;
  readonly engine: RunEngine;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly log: ManifestLog;
  /** An uploaded bundle's turns: runs with `subject: { handle }` (DESIGN §19). */
  readonly bundles?: BundleTurns;
}

type LiveData = EvalRunData & { status: 'Queued' | 'Running' };

function isLive(run: EvalRunData): run is LiveData {
  return run.status === 'Queued' || run.status === 'Running';
}

export class EvalService {
  readonly #deps: EvalServiceDeps;

  constructor(deps: EvalServiceDeps) {
    this.#deps = deps;
  }

  /** Truthful whatever the toggle says (DESIGN.md §10): the names in the configured roots. */
  async listDatasets(): Promise<string[]> {
    return (await listDatasetFiles(this.#deps.config.datasetRoots, this.#deps.log)).map((file) => file.name);
  }

  async start(principal: Principal, body: unknown, requestId: string | null = null): Promise<{ jobId: string; statusUrl: string }> {
    const { config, clock, engine, access } = this.#deps;
    // The gate first (undistinguished from a disabled surface), with the envelope the run will be governed by.
    const jobId = this.#deps.ids.opaque();
    const envelope = access.authorize(principal, 'evals.run', { surfaceEnabled: config.enabled, jobId, requestId });
    const request = readStartRequest(body);
    const options = readRunOptions(request, config);
    const subject = request.subject === undefined ? undefined : await this.#handleSubject(principal, request.subject.handle);
    const baseline = request.baseline === undefined ? undefined : await this.#baseline(principal, request.baseline);
    const datasets = await loadDatasets(config, request.datasets, this.#deps.log, { ownerId: principal.ownerId, resolver: this.#deps.ownDatasets });
    const executions = planExecutions(datasets, options.repeats, options.tagFilter);
    if (executions.length === 0) throw ceilingBreached('tagFilter selects no case of the named datasets; nothing was queued.');
    if (executions.length > config.maxCaseExecutionsPerRun) {
      throw ceilingBreached(
        `The run would execute ${executions.length} cases (cases × repeats after tagFilter); Evaluation:MaxCaseExecutionsPerRun allows ${config.maxCaseExecutionsPerRun}. Nothing was queued.`,
      );
    }
    const run: EvalRunData = {
      jobId,
      ownerId: principal.ownerId,
      createdAt: clock.now(),
      status: 'Queued',
      startedAt: null,
      completedAt: null,
      submission: { datasets, options, envelope, ...(subject === undefined ? {} : { subject }), ...(baseline === undefined ? {} : { baseline }) },
      datasetNames: datasets.map((d) => d.name),
      outcome: null,
    };
    // Admitted and dispatched in one insert: begun already when this instance has a slot for it now.
    const admitted = await engine.startRun(evalRunKey(principal, run.jobId), { state: run.status, createdAt: run.createdAt, data: run }, (first) =>
      this.#deps.store.admit(first.data, config.maxActiveRunsPerOwner, first.lease),
    );
    if (admitted.outcome !== 'inserted') {
      throw ceilingBreached(
        `This caller already has ${config.maxActiveRunsPerOwner} eval runs queued or executing; Evaluation:MaxActiveRunsPerOwner allows ${config.maxActiveRunsPerOwner}.`,
      );
    }
    return { jobId: run.jobId, statusUrl: statusUrl(run.jobId) };
  }

  /** The caller's live bundle handle (its TTL slid), as a run's subject; 403 with bundles off, 404 when unknown, expired or foreign. */
  async #handleSubject(principal: Principal, handle: string): Promise<{ readonly handle: string }> {
    const bundles = this.#deps.bundles;
    if (bundles === undefined || !bundles.enabled) throw bundlesDisabled();
    if ((await bundles.find(principal, handle)) === undefined) throw new ProblemError('not-found', HANDLE_NOT_FOUND_DETAIL);
    return { handle };
  }

  /** The baseline run's case outcomes: a Succeeded run of the caller whose details are still kept, else 404. */
  async #baseline(principal: Principal, jobId: string): Promise<Baseline> {
    const filed = await this.#deps.store.find(principal, jobId);
    if (filed === undefined || filed.run.status !== 'Succeeded' || filed.details === undefined) throw baselineNotFound();
    return { jobId, cases: caseOutcomes(filed.details.cases) };
  }

  /** Whether a run of the caller could name every one of `names`: a host dataset, or one of the caller's own (a schedule's target). */
  async datasetsExist(principal: Principal, names: readonly string[]): Promise<boolean> {
    try {
      await loadDatasets(this.#deps.config, names, this.#deps.log, { ownerId: principal.ownerId, resolver: this.#deps.ownDatasets });
      return true;
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'not-found') return false;
      throw error;
    }
  }

  /** A live run's judged case executions out of all it planned (repeats included). */
  async #progress(principal: Principal, run: LiveData): Promise<{ completed: number; total: number } | undefined> {
    if (run.submission === null) return undefined;
    const { datasets, options } = run.submission;
    const total = planExecutions(datasets, options.repeats, options.tagFilter).length;
    const completed = (await this.#deps.store.judged(evalRunKey(principal, run.jobId))).size;
    return { completed: Math.min(completed, total), total };
  }

  async poll(principal: Principal, jobId: string): Promise<EvalRunResponse> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const record = await this.#deps.store.record(principal, jobId);
    if (record !== undefined && isLive(record.data)) return liveRunResponse(record.data, await this.#progress(principal, record.data));
    const filed = await this.#deps.store.find(principal, jobId);
    if (filed === undefined) throw runNotFound();
    return filedRunResponse(filed.run, filed.details);
  }

  /** The caller's eval runs, newest first, as their poll bodies. */
  async list(principal: Principal, page: { readonly limit: number; readonly cursor: string | null }): Promise<{ runs: EvalRunResponse[]; nextCursor: string | null }> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const found = await this.#deps.store.list(principal, page);
    const runs = found.runs.map((entry) =>
      'live' in entry ? liveRunResponse(entry.live as LiveData) : filedRunResponse(entry.run, entry.details),
    );
    return { runs, nextCursor: found.nextCursor };
  }

  async cancel(principal: Principal, jobId: string): Promise<CancelEvalRunResponse> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const record = await this.#deps.store.record(principal, jobId);
    if (record === undefined || !isLive(record.data)) {
      if ((await this.#deps.store.find(principal, jobId)) !== undefined) throw runFinished();
      throw runNotFound();
    }
    // A run not started is cancelled outright; one already executing continues to completion (SPEC.md).
    return { stopped: (await this.#deps.engine.cancel(evalRunKey(principal, jobId), { onlyIfQueued: true })) === 'ended' };
  }

  async junitReport(principal: Principal, jobId: string): Promise<string> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const record = await this.#deps.store.record(principal, jobId);
    if (record !== undefined && isLive(record.data)) throw runNotFinished();
    const filed = await this.#deps.store.find(principal, jobId);
    if (filed === undefined) throw runNotFound();
    if (filed.details === undefined) throw reportReclaimed();
    const { datasets, repeats, cases, report } = filed.details;
    const regressions = report?.comparison?.regressions;
    return junitXml({ jobId, datasets, repeats, cases, durationMs: filed.run.outcome?.durationMs ?? 0, ...(regressions === undefined ? {} : { regressions }) });
  }

  sweep(): Promise<void> {
    return this.#deps.store.sweep();
  }
}
