// The eval use cases without HTTP: list datasets, start a run (gates, ceilings and dataset checks all
// before anything is queued; the per-owner cap atomically with the insert), poll, list, cancel and the
// JUnit report, from any instance. Runs are executed by the shared run engine under the envelope
// captured at start; each judged case is a checkpoint, so a run taken over after a crash keeps them.
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { EnvelopesConfig, EvaluationConfig } from '../platform/config/types.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import type { Owner } from '../platform/ownership/index.js';
import { redactValue } from '../platform/redaction/index.js';
import { leaseLost, stopCause, type LiveRun, type RunEngine, type RunKind } from '../runs/index.js';
import { listDatasetFiles } from './datasets/list-dataset-files.js';
import { loadDatasets } from './datasets/load-datasets.js';
import type { EvalRunData, FinishedStatus, RunDetails } from './eval-run.js';
import { ceilingBreached, evalsDisabled, forbidden, reportReclaimed, runFinished, runNotFinished, runNotFound } from './problems.js';
import { buildReport } from './report/build-report.js';
import { junitXml } from './report/junit-xml.js';
import { planExecutions } from './runner/plan-executions.js';
import { runEvaluation, type EvaluationHost } from './runner/run-evaluation.js';
import { readRunOptions, readStartRequest } from './run-options.js';
import { filedRunResponse, liveRunResponse, statusUrl } from './run-response.js';
import type { CancelEvalRunResponse, EvalRunResponse, Verdict } from './schemas.js';
import type { Tally } from './report/tally.js';
import type { EvalStore} from './store/eval-store.js';
import { LIVE_STATES, RUN_COLLECTION, runKey } from './store/eval-store.js';

export const EVALS_ROLE = 'Harness.Evals.Execute';

export interface EvalServiceDeps {
  readonly config: EvaluationConfig;
  readonly envelopes: EnvelopesConfig;
  readonly store: EvalStore;
  readonly engine: RunEngine;
  /** Whether the storage outlives this process (a stopping host then leaves runs for a takeover). */
  readonly durable: boolean;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly host: Omit<EvaluationHost, 'hostSignal' | 'clock' | 'ids'>;
  /** Told of every run that finished with a report (the eval verdict and case metrics). */
  readonly onReport?: (verdict: Verdict, counts: Tally) => void;
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

  /** The eval run kind: one lane of Evaluation:MaxConcurrentRuns per instance, one run per owner at a time. */
  kind(): RunKind {
    return {
      collection: RUN_COLLECTION,
      liveStates: LIVE_STATES,
      lane: { maxConcurrent: this.#deps.config.maxConcurrentRuns, maxConcurrentPerOwner: 1 },
      execute: (live) => this.#execute(live),
      takeOver: async () => 'execute',
      abandon: async (key) => {
        if (this.#deps.durable) return;
        const record = await this.#deps.store.record(key, key.id);
        if (record !== undefined && isLive(record.data)) await this.#finishEmpty(record.data, 'Failed', ['Queued']);
      },
    };
  }

  /** Truthful whatever the toggle says (DESIGN.md §10): the names in the configured roots. */
  async listDatasets(): Promise<string[]> {
    return (await listDatasetFiles(this.#deps.config.datasetRoots, this.#deps.host.log)).map((file) => file.name);
  }

  async start(principal: Principal, body: unknown): Promise<{ jobId: string; statusUrl: string }> {
    const { config, clock, engine } = this.#deps;
    if (!config.enabled || !principal.roles.includes(EVALS_ROLE)) throw forbidden();
    const request = readStartRequest(body);
    const options = readRunOptions(request, config);
    const datasets = await loadDatasets(config, request.datasets, this.#deps.host.log);
    const executions = planExecutions(datasets, options.repeats, options.tagFilter);
    if (executions.length === 0) throw ceilingBreached('tagFilter selects no case of the named datasets; nothing was queued.');
    if (executions.length > config.maxCaseExecutionsPerRun) {
      throw ceilingBreached(
        `The run would execute ${executions.length} cases (cases × repeats after tagFilter); Evaluation:MaxCaseExecutionsPerRun allows ${config.maxCaseExecutionsPerRun}. Nothing was queued.`,
      );
    }
    const run: EvalRunData = {
      jobId: this.#deps.ids.opaque(),
      ownerId: principal.ownerId,
      createdAt: clock.now(),
      status: 'Queued',
      startedAt: null,
      completedAt: null,
      submission: { datasets, options, envelope: resolveEnvelope(this.#deps.envelopes, principal) },
      datasetNames: datasets.map((d) => d.name),
      outcome: null,
    };
    const admitted = await this.#deps.store.admit(run, config.maxActiveRunsPerOwner, engine.lease());
    if (admitted.outcome !== 'inserted') {
      throw ceilingBreached(
        `This caller already has ${config.maxActiveRunsPerOwner} eval runs queued or executing; Evaluation:MaxActiveRunsPerOwner allows ${config.maxActiveRunsPerOwner}.`,
      );
    }
    engine.dispatch(runKey(principal, run.jobId));
    return { jobId: run.jobId, statusUrl: statusUrl(run.jobId) };
  }

  /** A live run's judged case executions out of all it planned (repeats included). */
  async #progress(principal: Principal, run: LiveData): Promise<{ completed: number; total: number } | undefined> {
    if (run.submission === null) return undefined;
    const { datasets, options } = run.submission;
    const total = planExecutions(datasets, options.repeats, options.tagFilter).length;
    const completed = (await this.#deps.store.judged(runKey(principal, run.jobId))).size;
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
    if (record.data.status !== 'Queued') return { stopped: false };
    if (!(await this.#finishEmpty(record.data, 'Cancelled', ['Queued']))) return { stopped: false };
    this.#deps.engine.withdraw(runKey(principal, jobId));
    return { stopped: true };
  }

  async junitReport(principal: Principal, jobId: string): Promise<string> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const record = await this.#deps.store.record(principal, jobId);
    if (record !== undefined && isLive(record.data)) throw runNotFinished();
    const filed = await this.#deps.store.find(principal, jobId);
    if (filed === undefined) throw runNotFound();
    if (filed.details === undefined) throw reportReclaimed();
    const { datasets, repeats, cases } = filed.details;
    return junitXml({ jobId, datasets, repeats, cases, durationMs: filed.run.outcome?.durationMs ?? 0 });
  }

  sweep(): Promise<void> {
    return this.#deps.store.sweep();
  }

  async #execute(live: LiveRun): Promise<void> {
    const { clock, ids, host, store } = this.#deps;
    const owner: Owner = { ownerId: live.key.ownerId };
    const record = await store.record(owner, live.key.id);
    if (record === undefined || !isLive(record.data) || record.data.submission === null) return;
    let run: EvalRunData = record.data;
    const submission = record.data.submission;
    if (run.status === 'Queued') {
      run = { ...run, status: 'Running', startedAt: clock.now() };
      if (!(await store.transition(run, ['Queued'], live.holder))) return;
    }
    const startedAt = run.startedAt ?? clock.now();
    const lost = new AbortController();
    const signal = AbortSignal.any([live.signal, lost.signal]);
    try {
      const results = await runEvaluation(
        {
          ownerId: run.ownerId,
          envelope: submission.envelope,
          datasets: submission.datasets,
          executions: planExecutions(submission.datasets, submission.options.repeats, submission.options.tagFilter),
          parallelism: submission.options.parallelism,
          judged: await store.judged(live.key),
          onJudged: async (index, result) => {
            if (!(await store.checkpoint(live.key, index, redactValue(result), live.holder))) lost.abort(leaseLost());
          },
        },
        { ...host, clock, ids, hostSignal: signal },
      );
      const cause = stopCause(signal);
      if (cause === 'lease-lost' || (cause === 'host-stopping' && this.#deps.durable)) return;
      if (cause !== null) {
        await this.#finishEmpty(run, 'Failed', ['Running'], live.holder);
        return;
      }
      const { options } = submission;
      const built = buildReport(results, { datasets: run.datasetNames, repeats: options.repeats, failRateThreshold: options.failRateThreshold, pricing: host.pricing });
      const completedAt = clock.now();
      const outcome = { counts: built.counts, verdict: built.verdict, durationMs: Math.max(0, completedAt - startedAt), costUsd: built.costUsd };
      // Everything in the details that came from a model or a tool is redacted once, here, before it is kept.
      const details: RunDetails = redactValue({ datasets: run.datasetNames, repeats: options.repeats, report: built.report, cases: results });
      if (await store.file({ ...run, status: 'Succeeded', completedAt, outcome }, details, ['Running'], live.holder)) this.#deps.onReport?.(built.verdict, built.counts);
    } catch (error) {
      const cause = stopCause(signal);
      if (cause === 'lease-lost' || (cause === 'host-stopping' && this.#deps.durable)) return;
      host.log.warn({ err: error, jobId: run.jobId }, 'An eval run failed outside its cases.');
      await this.#finishEmpty(run, 'Failed', ['Running'], live.holder).catch(() => undefined);
    }
  }

  /** Files a run that ends without a report (cancelled, failed); false when it was no longer in `from`. */
  #finishEmpty(run: EvalRunData, status: FinishedStatus, from: readonly string[], holder?: string): Promise<boolean> {
    const completedAt = this.#deps.clock.now();
    return this.#deps.store.file({ ...run, status, completedAt, outcome: null }, { datasets: run.datasetNames, repeats: run.submission?.options.repeats ?? 1, report: null, cases: [] }, from, holder);
  }
}
