// Evals: the datasets I may run, starting a run (repeats, parallelism, tags, fail-rate threshold) or
// scheduling one with those settings, and my recent runs.
import { useState } from 'preact/hooks';
import type { EvalRun } from '../api/types';
import { Badge, Empty, ProblemNotice } from '../components/common';
import { EvalSettingsFields } from '../components/eval-settings-fields';
import { useApi } from '../lib/api-context';
import { useFamilies } from '../lib/families';
import { DEFAULT_EVAL_SETTINGS, evalRunRequest, type EvalSettings } from '../lib/eval-settings';
import { dollars, when } from '../lib/format';
import { href, navigate, useTitle } from '../lib/router';
import { scheduleEvalLink } from '../lib/schedule-prefill';
import { useAsync } from '../lib/use-async';

export function EvalsPage() {
  useTitle('Evals');
  const api = useApi();
  const datasets = useAsync((signal) => api.get<{ datasets: string[] }>('/api/evals/datasets', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: EvalRun[] }>('/api/evals/runs?limit=20', signal), [api], 5000);
  const [settings, setSettings] = useState<EvalSettings>(DEFAULT_EVAL_SETTINGS);
  const [error, setError] = useState<unknown>(undefined);
  const schedulable = useFamilies().schedules;

  const start = async (): Promise<void> => {
    setError(undefined);
    try {
      const started = await api.send<{ jobId: string }>('POST', '/api/evals/runs', evalRunRequest(settings));
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
        <EvalSettingsFields datasets={datasets.value?.datasets} value={settings} onChange={setSettings} />
        <div class="actions">
          <button type="submit" class="primary" disabled={settings.datasets.size === 0}>
            Start eval run
          </button>
          {settings.datasets.size === 0 || !schedulable ? null : (
            <a class="button" href={scheduleEvalLink(settings)}>
              Schedule this
            </a>
          )}
        </div>
      </form>
      <ProblemNotice error={error} context="The eval run was not started" />
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
