// The eval use cases without HTTP: list datasets, start a run (gates, ceilings and dataset checks all
// before anything is queued), poll, cancel and the JUnit report. Runs execute on the dispatcher under
// the envelope captured at start; finished runs are filed into the eval store.
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { EnvelopesConfig, EvaluationConfig } from '../platform/config/types.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import { redactValue } from '../platform/redaction/index.js';
import { listDatasetFiles } from './datasets/list-dataset-files.js';
import { loadDatasets } from './datasets/load-datasets.js';
import { EvalDispatcher } from './dispatcher.js';
import type { ActiveRun, FiledRun, RunDetails } from './eval-run.js';
import { ceilingBreached, evalsDisabled, forbidden, reportReclaimed, runFinished, runNotFinished, runNotFound } from './problems.js';
import { buildReport } from './report/build-report.js';
import { junitXml } from './report/junit-xml.js';
import { planExecutions } from './runner/plan-executions.js';
import { runEvaluation, type EvaluationHost } from './runner/run-evaluation.js';
import { readRunOptions, readStartRequest } from './run-options.js';
import { activeRunResponse, filedRunResponse, statusUrl } from './run-response.js';
import type { CancelEvalRunResponse, EvalRunResponse } from './schemas.js';
import { ActiveRuns } from './store/active-runs.js';
import { EvalStore } from './store/eval-store.js';

export const EVALS_ROLE = 'Harness.Evals.Execute';

export interface EvalServiceDeps {
  readonly config: EvaluationConfig;
  readonly envelopes: EnvelopesConfig;
  /** How long a finished run keeps its submission (BundleExecution:RunRecordTtl). */
  readonly reclaimAfterMs: number;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly host: Omit<EvaluationHost, 'hostSignal' | 'clock' | 'ids'>;
}

export class EvalService {
  readonly #deps: EvalServiceDeps;
  readonly #active: ActiveRuns;
  readonly #store: EvalStore;
  readonly #dispatcher: EvalDispatcher;
  readonly #shutdown = new AbortController();

  constructor(deps: EvalServiceDeps) {
    this.#deps = deps;
    this.#active = new ActiveRuns(deps.clock);
    this.#store = new EvalStore({ clock: deps.clock, reclaimAfterMs: deps.reclaimAfterMs, reportsRoot: deps.config.reportsRoot, log: deps.host.log });
    this.#dispatcher = new EvalDispatcher((run) => this.#execute(run));
  }

  /** Truthful whatever the toggle says (DESIGN.md §10): the names in the configured roots. */
  async listDatasets(): Promise<string[]> {
    return (await listDatasetFiles(this.#deps.config.datasetRoots, this.#deps.host.log)).map((file) => file.name);
  }

  async start(principal: Principal, body: unknown): Promise<{ jobId: string; statusUrl: string }> {
    const { config } = this.#deps;
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
    // No await between this check and add(): two concurrent starts cannot both pass the cap.
    const active = this.#active.countFor(principal.ownerId);
    if (active >= config.maxActiveRunsPerOwner) {
      throw ceilingBreached(
        `This caller already has ${active} eval runs queued or executing; Evaluation:MaxActiveRunsPerOwner allows ${config.maxActiveRunsPerOwner}.`,
      );
    }
    const run: ActiveRun = {
      jobId: this.#deps.ids.opaque(),
      ownerId: principal.ownerId,
      createdAt: this.#deps.clock.now(),
      datasets,
      executions,
      options,
      envelope: resolveEnvelope(this.#deps.envelopes, principal),
      status: 'Queued',
      startedAt: null,
    };
    const added = this.#active.add(run);
    this.#dispatcher.enqueue(run);
    await added;
    return { jobId: run.jobId, statusUrl: statusUrl(run.jobId) };
  }

  async poll(principal: Principal, jobId: string): Promise<EvalRunResponse> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const active = await this.#active.find(principal, jobId);
    if (active !== undefined) return activeRunResponse(active);
    const filed = await this.#store.find(principal, jobId);
    if (filed === undefined) throw runNotFound();
    return filedRunResponse(filed.run, filed.details);
  }

  async cancel(principal: Principal, jobId: string): Promise<CancelEvalRunResponse> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    const active = await this.#active.find(principal, jobId);
    if (active === undefined) {
      if ((await this.#store.find(principal, jobId)) !== undefined) throw runFinished();
      throw runNotFound();
    }
    if (!this.#dispatcher.withdraw(active)) return { stopped: false };
    await this.#finish(active, { status: 'Cancelled', outcome: null }, { report: null, cases: [] });
    return { stopped: true };
  }

  async junitReport(principal: Principal, jobId: string): Promise<string> {
    if (!this.#deps.config.enabled) throw evalsDisabled();
    if ((await this.#active.find(principal, jobId)) !== undefined) throw runNotFinished();
    const filed = await this.#store.find(principal, jobId);
    if (filed === undefined) throw runNotFound();
    if (filed.details === undefined) throw reportReclaimed();
    const { datasets, repeats, cases } = filed.details;
    return junitXml({ jobId, datasets, repeats, cases, durationMs: filed.run.outcome?.durationMs ?? 0 });
  }

  sweep(): Promise<void> {
    return this.#store.sweep();
  }

  /** Host shutdown: nothing new starts, running cases are aborted, their runs end Failed. */
  async close(): Promise<void> {
    this.#shutdown.abort();
    await this.#dispatcher.stop();
  }

  async #execute(run: ActiveRun): Promise<void> {
    const { clock, ids, host } = this.#deps;
    run.status = 'Running';
    const startedAt = clock.now();
    run.startedAt = startedAt;
    try {
      const results = await runEvaluation(
        { ownerId: run.ownerId, envelope: run.envelope, datasets: run.datasets, executions: run.executions, parallelism: run.options.parallelism },
        { ...host, clock, ids, hostSignal: this.#shutdown.signal },
      );
      if (this.#shutdown.signal.aborted) {
        await this.#finish(run, { status: 'Failed', outcome: null }, { report: null, cases: [] });
        return;
      }
      const names = run.datasets.map((d) => d.name);
      const built = buildReport(results, { datasets: names, repeats: run.options.repeats, failRateThreshold: run.options.failRateThreshold, pricing: host.pricing });
      const completedAt = clock.now();
      const outcome = { counts: built.counts, verdict: built.verdict, durationMs: Math.max(0, completedAt - startedAt), costUsd: built.costUsd };
      await this.#finish(run, { status: 'Succeeded', outcome }, { report: built.report, cases: results }, completedAt);
    } catch (error) {
      host.log.warn({ err: error, jobId: run.jobId }, 'An eval run failed outside its cases.');
      await this.#finish(run, { status: 'Failed', outcome: null }, { report: null, cases: [] }).catch(() => undefined);
    }
  }

  async #finish(
    run: ActiveRun,
    end: Pick<FiledRun, 'status' | 'outcome'>,
    details: Pick<RunDetails, 'report' | 'cases'>,
    completedAt = this.#deps.clock.now(),
  ): Promise<void> {
    const filed: FiledRun = {
      jobId: run.jobId,
      ownerId: run.ownerId,
      status: end.status,
      createdAt: run.createdAt,
      startedAt: run.startedAt,
      completedAt,
      outcome: end.outcome,
    };
    // Everything in the details that came from a model or a tool is redacted once, here, before it is kept.
    const kept: RunDetails = redactValue({ datasets: run.datasets.map((d) => d.name), repeats: run.options.repeats, ...details });
    try {
      await this.#store.file(filed, kept);
    } finally {
      await this.#active.remove(run);
    }
  }
}
