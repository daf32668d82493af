// One eval run: its status polled live until it ends, then the report — verdict, counts, per dataset
// and per tag, flaky cases, pass^k, tokens and cost, and with a baseline its comparison — the failing
// cases (from the JUnit report) and the JUnit download.
import { useEffect, useState } from 'preact/hooks';
import type { EvalRun, Tally } from '../api/types';
import { Badge, Empty, Facts, ProblemNotice, Verbatim } from '../components/common';
import { EvalComparisonPanel } from '../components/eval-comparison';
import { useApi } from '../lib/api-context';
import { dollars, duration, percent, when } from '../lib/format';
import { caseFailures, type CaseFailure } from '../lib/junit';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

const POLL_MS = 1000;
const FINAL = new Set(['Succeeded', 'Failed', 'Cancelled']);

export function EvalRunPage({ jobId }: { jobId: string }) {
  useTitle(`Eval run ${jobId}`);
  const api = useApi();
  const path = `/api/evals/runs/${encodeURIComponent(jobId)}`;
  const [done, setDone] = useState(false);
  const run = useAsync((signal) => api.get<EvalRun>(path, signal), [api, path], done ? undefined : POLL_MS);
  const [now, setNow] = useState(Date.now());
  const value = run.value;
  const finished = value !== undefined && FINAL.has(value.status);
  useEffect(() => {
    if (finished) setDone(true);
  }, [finished]);
  useEffect(() => {
    if (finished) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [finished]);

  const failures = useAsync<CaseFailure[] | null>(
    async () => (value?.status === 'Succeeded' ? caseFailures(await (await api.blob(`${path}/report.xml`)).text()) : null),
    [api, path, value?.status],
  );

  const download = async (): Promise<void> => {
    const blob = await api.blob(`${path}/report.xml`);
    const url = URL.createObjectURL(new Blob([blob], { type: 'application/xml' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `eval-${jobId}.junit.xml`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const cancel = async (): Promise<void> => {
    await api.send('DELETE', path).catch(() => undefined);
    run.reload();
  };

  const elapsed = value?.startedAt ? Math.max(0, (value.completedAt ? Date.parse(value.completedAt) : now) - Date.parse(value.startedAt)) : undefined;
  return (
    <section>
      <h1>Eval run</h1>
      <p class="meta">
        <code>{jobId}</code> · <a href={href('evals')}>all eval runs</a>
      </p>
      <ProblemNotice error={run.error} />
      {value === undefined ? null : (
        <>
          <div class="progress-row" role="status" aria-live="polite">
            <Badge status={value.status} />
            {finished ? null : (
              <>
                <progress aria-label="Eval run in progress" />
                <span>
                  {value.status === 'Queued' ? 'Waiting for a slot…' : `Running for ${duration(elapsed)}…`}
                </span>
                <button type="button" class="danger" onClick={() => void cancel()}>
                  Cancel
                </button>
              </>
            )}
          </div>
          <Facts
            items={[
              ['Datasets', value.datasets.join(', ') || '—'],
              ['Created', when(value.createdAt)],
              ['Started', when(value.startedAt)],
              ['Finished', when(value.completedAt)],
            ]}
          />
          {value.status === 'Succeeded' ? <Report run={value} onDownload={() => void download()} failures={failures.value ?? null} /> : null}
          <ProblemNotice error={failures.error} context="The JUnit report could not be read" />
        </>
      )}
    </section>
  );
}

function Report({ run, failures, onDownload }: { run: EvalRun; failures: CaseFailure[] | null; onDownload: () => void }) {
  const report = run.report;
  return (
    <>
      <h2>
        Verdict {run.verdict === undefined ? '—' : <Badge status={run.verdict} />}
      </h2>
      <Facts
        items={[
          ['Cases (× repeats)', run.counts?.total ?? '—'],
          ['Fail rate', `${percent(report?.failRate)} (threshold ${percent(report?.failRateThreshold)})`],
          ['pass^k', report === undefined ? '—' : `${percent(report.passAtK)} (k = ${report.repeats})`],
          ['Flaky cases', report?.flakyCases ?? '—'],
          ['Duration', duration(run.durationMs)],
          ['Cost', dollars(run.costUsd)],
          ['Tokens', report === undefined ? '—' : `${report.tokens.input} in, ${report.tokens.output} out`],
        ]}
      />
      <button type="button" onClick={onDownload}>
        Download JUnit XML
      </button>
      {report?.comparison === undefined ? null : <EvalComparisonPanel comparison={report.comparison} />}
      {run.counts === undefined ? null : <TallyTable caption="Totals" rows={[['All datasets', run.counts]]} />}
      {report === undefined ? null : (
        <>
          <TallyTable caption="By dataset" rows={report.byDataset.map((row) => [row.name, row] as const)} />
          {report.byTag.length === 0 ? null : <TallyTable caption="By tag" rows={report.byTag.map((row) => [row.tag, row] as const)} />}
        </>
      )}
      <h2>Failing cases</h2>
      {failures === null ? <p class="meta">Loading…</p> : failures.length === 0 ? <Empty>No case failed or errored.</Empty> : null}
      {failures === null || failures.length === 0 ? null : (
        <table class="failures">
          <thead>
            <tr>
              <th scope="col">Dataset</th>
              <th scope="col">Case</th>
              <th scope="col">Outcome</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((failure, i) => (
              <tr key={i}>
                <td>{failure.dataset}</td>
                <td>{failure.name}</td>
                <td>
                  <Badge status={failure.kind === 'failure' ? 'Failed' : 'Errored'} />
                </td>
                <td>
                  <p>{failure.message}</p>
                  {failure.details.trim() === '' ? null : <Verbatim text={failure.details.trim()} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function TallyTable({ caption, rows }: { caption: string; rows: readonly (readonly [string, Tally])[] }) {
  return (
    <table class="tally">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Passed</th>
          <th scope="col">Failed</th>
          <th scope="col">Warned</th>
          <th scope="col">Errored</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, tally]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{tally.passed}</td>
            <td>{tally.failed}</td>
            <td>{tally.warned}</td>
            <td>{tally.errored}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
