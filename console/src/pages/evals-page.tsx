// Evals: the datasets I may run (the host's and my own), starting a run (repeats, parallelism, tags,
// fail-rate threshold; and, for a run started now, a bundle as the subject and a baseline to compare
// with) or scheduling one with the settings, my own datasets, and my recent runs. A `?dataset=` query
// (the "Run this version" link of a dataset of mine) fills the settings in.
import { useState } from 'preact/hooks';
import type { BundleHandle, EvalRun, OwnDatasetSummary } from '../api/types';
import { Badge, Empty, ProblemNotice } from '../components/common';
import { EvalRunOptionsFields } from '../components/eval-run-options-fields';
import { EvalSettingsFields } from '../components/eval-settings-fields';
import { useApi } from '../lib/api-context';
import { useFamilies } from '../lib/families';
import { NO_EVAL_RUN_OPTIONS, withRunOptions, type EvalRunOptions } from '../lib/eval-run-options';
import { evalRunRequest, evalSettingsFrom, type EvalSettings } from '../lib/eval-settings';
import { dollars, when } from '../lib/format';
import { currentQuery, href, navigate, useTitle } from '../lib/router';
import { scheduleEvalLink } from '../lib/schedule-prefill';
import { useAsync } from '../lib/use-async';

export function EvalsPage() {
  useTitle('Evals');
  const api = useApi();
  const families = useFamilies();
  const datasets = useAsync((signal) => api.get<{ datasets: string[] }>('/api/evals/datasets', signal), [api]);
  // At most 100 per caller (DESIGN §19): one page holds them all.
  const own = useAsync((signal) => api.get<{ datasets: OwnDatasetSummary[] }>('/api/evals/datasets/mine?limit=100', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: EvalRun[] }>('/api/evals/runs?limit=20', signal), [api], 5000);
  // Offered only when I may list bundles: a caller who may not is not told so for nothing.
  const handles = useAsync(async (signal) => (families.bundles ? (await api.get<{ handles: BundleHandle[] }>('/api/bundles?limit=100', signal)).handles : undefined), [api, families.bundles]);
  const [settings, setSettings] = useState<EvalSettings>(() => evalSettingsFrom(currentQuery()));
  const [options, setOptions] = useState<EvalRunOptions>(NO_EVAL_RUN_OPTIONS);
  const [error, setError] = useState<unknown>(undefined);

  const start = async (): Promise<void> => {
    setError(undefined);
    try {
      const started = await api.send<{ jobId: string }>('POST', '/api/evals/runs', withRunOptions(evalRunRequest(settings), options));
      navigate('evals', started.jobId);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section>
      <h1>Evals</h1>
      <ProblemNotice error={datasets.error} />
      <form
        class="eval-start"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <EvalSettingsFields datasets={datasets.value?.datasets} ownDatasets={own.value?.datasets} value={settings} onChange={setSettings} />
        <EvalRunOptionsFields handles={handles.error === undefined ? handles.value : undefined} runs={runs.value?.runs} value={options} onChange={setOptions} />
        <div class="actions">
          <button type="submit" class="primary" disabled={settings.datasets.size === 0}>
            Start eval run
          </button>
          {settings.datasets.size === 0 || !families.schedules ? null : (
            <a class="button" href={scheduleEvalLink(settings)}>
              Schedule this
            </a>
          )}
        </div>
        {families.schedules && (options.handle !== '' || options.baseline !== '') ? <p class="hint">A schedule takes the datasets and settings, not the subject or the baseline.</p> : null}
      </form>
      <ProblemNotice error={error} context="The eval run was not started" />
      <h2>My datasets</h2>
      <ProblemNotice error={own.error} />
      {own.value?.datasets.length === 0 ? (
        <Empty>
          None yet: <code>PUT /api/evals/datasets/mine/{'{name}'}</code> stores one.
        </Empty>
      ) : null}
      {own.value === undefined || own.value.datasets.length === 0 ? null : <OwnDatasetTable datasets={own.value.datasets} />}
      <h2>Recent runs</h2>
      <ProblemNotice error={runs.error} />
      {runs.value?.runs.length === 0 ? <Empty>No eval runs yet.</Empty> : null}
      {runs.value === undefined || runs.value.runs.length === 0 ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Datasets</th>
              <th scope="col">Status</th>
              <th scope="col">Verdict</th>
              <th scope="col">Cost</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {runs.value.runs.map((run) => (
              <tr key={run.jobId}>
                <td>
                  <a href={href('evals', run.jobId)}>{run.jobId}</a>
                </td>
                <td>{run.datasets.join(', ') || '—'}</td>
                <td>
                  <Badge status={run.status} />
                </td>
                <td>{run.verdict === undefined ? '—' : <Badge status={run.verdict} />}</td>
                <td>{dollars(run.costUsd)}</td>
                <td>{when(run.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function OwnDatasetTable({ datasets }: { datasets: readonly OwnDatasetSummary[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Latest version</th>
          <th scope="col">Cases</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {datasets.map((dataset) => (
          <tr key={dataset.name}>
            <td>
              <a href={href('evals', 'mine', dataset.name)}>mine/{dataset.name}</a>
            </td>
            <td>{dataset.version}</td>
            <td>{dataset.caseCount}</td>
            <td>{when(dataset.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
