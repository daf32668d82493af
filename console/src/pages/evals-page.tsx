// Evals: the datasets I may run, starting a run (repeats, parallelism, tags, fail-rate threshold), and
// my recent runs.
import { useState } from 'preact/hooks';
import type { EvalRun } from '../api/types';
import { Badge, Empty, ProblemNotice } from '../components/common';
import { useApi } from '../lib/api-context';
import { dollars, when } from '../lib/format';
import { href, navigate, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

export function EvalsPage() {
  useTitle('Evals');
  const api = useApi();
  const datasets = useAsync((signal) => api.get<{ datasets: string[] }>('/api/evals/datasets', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: EvalRun[] }>('/api/evals/runs?limit=20', signal), [api], 5000);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [repeats, setRepeats] = useState('1');
  const [parallelism, setParallelism] = useState('4');
  const [tags, setTags] = useState('');
  const [threshold, setThreshold] = useState('0');
  const [error, setError] = useState<unknown>(undefined);

  const start = async (): Promise<void> => {
    setError(undefined);
    const tagFilter = tags.split(/[\s,]+/).filter((tag) => tag !== '');
    try {
      const started = await api.send<{ jobId: string }>('POST', '/api/evals/runs', {
        datasets: [...chosen],
        repeats: Number(repeats),
        parallelism: Number(parallelism),
        failRateThreshold: Number(threshold),
        ...(tagFilter.length === 0 ? {} : { tagFilter }),
      });
      navigate('evals', started.jobId);
    } catch (caught) {
      setError(caught);
    }
  };

  const toggle = (name: string, on: boolean): void => {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    setChosen(next);
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
        <fieldset>
          <legend>Datasets</legend>
          {datasets.value?.datasets.length === 0 ? <Empty>No datasets: the service has no Evaluation:DatasetRoots.</Empty> : null}
          {(datasets.value?.datasets ?? []).map((name) => (
            <label key={name} class="check">
              <input type="checkbox" name="dataset" value={name} checked={chosen.has(name)} onChange={(event) => toggle(name, event.currentTarget.checked)} /> {name}
            </label>
          ))}
        </fieldset>
        <div class="fields">
          <label>
            Repeats <input type="number" min={1} value={repeats} onInput={(event) => setRepeats(event.currentTarget.value)} />
          </label>
          <label>
            Parallelism <input type="number" min={1} value={parallelism} onInput={(event) => setParallelism(event.currentTarget.value)} />
          </label>
          <label>
            Fail-rate threshold <input type="number" min={0} max={1} step={0.05} value={threshold} onInput={(event) => setThreshold(event.currentTarget.value)} />
          </label>
          <label>
            Tags (any of) <input type="text" value={tags} onInput={(event) => setTags(event.currentTarget.value)} />
          </label>
        </div>
        <button type="submit" class="primary" disabled={chosen.size === 0}>
          Start eval run
        </button>
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
