// `portcullis eval run DATASET... [--repeats N] [--parallelism N] [--threshold X] [--tag T]... [--wait]
// [--junit FILE] [--dataset-file FILE]... [--subject-handle H] [--replay MODE] [--baseline JOB] [--fail-on-regression]`: starts an eval run; with
// --wait (or --junit) follows it to its verdict with a progress bar, writes the JUnit report, and exits
// 0 on Pass (or Warn), 1 on Fail (promptfoo-style). Its summary names each case that failed or errored
// (from the JUnit report, up to 20) and, with a baseline, the regressions, so a CI job can gate an agent
// change in one command (DESIGN §19).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isPortcullisProblem, unwrap, type EvalRun, type PortcullisClient } from '../../client/index.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { storeDatasetFile } from './dataset-file.js';
import { failingCaseLine, failingCases, type FailingCase } from './failing-cases.js';
import { createProgress } from './progress.js';
import { evalRunOptions, integerOption } from './option-values.js';
import { groupUsage, runRemote, UsageError, type RemoteIo } from './remote-command.js';

export const EVAL_RUN_SPEC: CommandSpec = {
  name: 'eval run',
  positionals: '[DATASET...]',
  summary: 'Start an evaluation run over named datasets (GET /api/evals/datasets lists them); with --wait, follow it to its verdict.',
  options: {
    repeats: { type: 'string', value: 'N', default: '1', applyDefault: false, description: 'Executions of every case.' },
    parallelism: { type: 'string', value: 'N', default: '4', applyDefault: false, description: 'Concurrent case executions, repeats included.' },
    threshold: { type: 'string', value: 'X', default: '0', applyDefault: false, description: 'Fail when (failed + errored) / total exceeds X (0..1).' },
    tag: { type: 'string', value: 'T', multiple: true, description: 'Only cases with any of these tags (repeatable).' },
    wait: { type: 'boolean', default: false, description: 'Wait for the verdict; the exit code reflects it.' },
    junit: { type: 'string', value: 'FILE', description: 'Write the JUnit XML report to FILE (implies --wait).' },
    'dataset-file': { type: 'string', value: 'FILE', multiple: true, description: 'Store a local dataset file as your own dataset mine/<file name> first, and run it (repeatable).' },
    replay: { type: 'string', value: 'MODE', description: 'How cases made from runs are answered: none (live; the default), tools (every tool call from the recording), all (the model too: no model call).' },
    'subject-handle': { type: 'string', value: 'HANDLE', description: 'Run every case as a turn of this uploaded bundle of yours, in place of the datasets’ subjects.' },
    baseline: { type: 'string', value: 'JOB', description: 'Compare with this earlier Succeeded eval run of yours: the report lists regressions and improvements.' },
    'fail-on-regression': { type: 'boolean', default: false, description: 'With --baseline: any regression makes the verdict Fail (exit 1).' },
    'poll-interval': { type: 'string', value: 'MS', default: '1000', description: 'Milliseconds between status polls while waiting.' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export const EVAL_USAGE = ['usage: portcullis eval run DATASET... [options]', '', 'subcommands:', '  run   start an evaluation run (see portcullis eval run --help)'].join('\n');

export async function runEvalCommand(args: string[], io: RemoteIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'run') return groupUsage('eval', EVAL_USAGE, subcommand, io);
  return runRemote(EVAL_RUN_SPEC, rest, io, async ({ values, positionals, client, json }) => {
    const files = Array.isArray(values['dataset-file']) ? values['dataset-file'] : [];
    if (positionals.length === 0 && files.length === 0) throw new UsageError('name at least one dataset, or give --dataset-file');
    const author = authorOptions(values);
    const own: string[] = [];
    for (const file of files) {
      const stored = await storeDatasetFile(client, io.cwd, file);
      if (!json) io.stderr(`stored ${file} as ${stored.runName}`);
      own.push(stored.runName);
    }
    const body = { datasets: [...positionals, ...own], ...evalRunOptions(values, { threshold: 'threshold', tag: 'tag' }), ...author };
    const pollMs = integerOption(values['poll-interval'], '--poll-interval');
    const junit = typeof values.junit === 'string' ? resolve(io.cwd, values.junit) : undefined;
    const started = await unwrap(client.api.POST('/api/evals/runs', { body })).catch(async (error: unknown) => {
      if (isPortcullisProblem(error) && error.status === 404) await nameUnknownDatasets(client, positionals, io);
      throw error;
    });
    if (values.wait !== true && junit === undefined) {
      io.stdout(json ? JSON.stringify(started) : `started eval run ${started.jobId} (${started.statusUrl})`);
      return EXIT.ok;
    }
    if (!json) io.stderr(`eval run ${started.jobId} started`);
    const progress = createProgress(io);
    let finished: EvalRun | undefined;
    try {
      for await (const run of client.evalProgress(started.jobId, { intervalMs: pollMs, signal: io.signal })) {
        if (run.progress) progress.update(run.progress.completed, run.progress.total, run.status);
        // The last line says where it ended, even for a run that finished before the first poll.
        else if (run.counts) progress.update(run.counts.total, run.counts.total, run.status);
        finished = run;
      }
    } finally {
      progress.stop();
    }
    const run = finished!;
    const anyNotPassed = run.counts !== undefined && run.counts.failed + run.counts.errored > 0;
    // The report: for --junit, and to name the cases that did not pass (the poll body only counts them).
    const report =
      run.status === 'Succeeded' && (junit !== undefined || (anyNotPassed && !json))
        ? ((await client.api.GET('/api/evals/runs/{jobId}/report.xml', { params: { path: { jobId: run.jobId } }, parseAs: 'text' })).data ?? '')
        : undefined;
    if (junit !== undefined && report !== undefined) {
      await mkdir(dirname(junit), { recursive: true });
      await writeFile(junit, report);
      if (!json) io.stderr(`JUnit report written to ${junit}`);
    }
    io.stdout(json ? JSON.stringify(run) : summary(run, anyNotPassed && report !== undefined ? failingCases(report) : []));
    return run.status === 'Succeeded' && run.verdict !== 'Fail' ? EXIT.ok : EXIT.failed;
  });
}

/** --subject-handle, --baseline and --fail-on-regression as the start request's fields (DESIGN §19). */
function authorOptions(values: Record<string, string | boolean | string[] | undefined>) {
  const handle = values['subject-handle'];
  const baseline = values.baseline;
  if (values['fail-on-regression'] === true && typeof baseline !== 'string') throw new UsageError('--fail-on-regression needs --baseline');
  const replay = readReplay(values.replay);
  return {
    ...(replay === undefined ? {} : { replay }),
    ...(typeof handle === 'string' ? { subject: { handle } } : {}),
    ...(typeof baseline === 'string' ? { baseline } : {}),
    ...(values['fail-on-regression'] === true ? { failOnRegression: true } : {}),
  };
}

function readReplay(value: unknown): 'none' | 'tools' | 'all' | undefined {
  if (value === undefined || value === 'none' || value === 'tools' || value === 'all') return value;
  throw new UsageError('--replay must be none, tools or all');
}

/** The most cases the summary names; the JUnit report (--junit) has them all. */
const MAX_NAMED_CASES = 20;

function summary(run: EvalRun, failing: readonly FailingCase[]): string {
  if (run.status !== 'Succeeded' || run.counts === undefined) return `eval run ${run.jobId} ended ${run.status}`;
  const c = run.counts;
  const rate = run.report ? ` (fail rate ${run.report.failRate.toFixed(2)}, threshold ${run.report.failRateThreshold})` : '';
  const lines = [`verdict ${run.verdict ?? '?'}: ${c.passed} passed, ${c.warned} warned, ${c.failed} failed, ${c.errored} errored of ${c.total}${rate}`];
  for (const failed of failing.slice(0, MAX_NAMED_CASES)) lines.push(failingCaseLine(failed));
  if (failing.length > MAX_NAMED_CASES) lines.push(`  … and ${failing.length - MAX_NAMED_CASES} more (--junit FILE writes every case)`);
  const comparison = run.report?.comparison;
  if (comparison !== undefined) {
    const { regressions, improvements, unchanged } = comparison;
    lines.push(`against ${comparison.baseline}: ${regressions.length} regressed, ${improvements.length} improved, ${unchanged} unchanged`);
    for (const change of regressions) lines.push(`  regressed ${change.dataset} ${change.caseId}: ${change.was} → ${change.now}`);
    for (const change of improvements) lines.push(`  improved ${change.dataset} ${change.caseId}: ${change.was} → ${change.now}`);
  }
  return lines.join('\n');
}

/** The service's 404 names no dataset: say which of those asked for it does not list, and what it has. */
async function nameUnknownDatasets(client: PortcullisClient, asked: readonly string[], io: RemoteIo): Promise<void> {
  const listed = await unwrap(client.api.GET('/api/evals/datasets')).catch(() => undefined);
  if (listed === undefined) return;
  const unknown = asked.filter((name) => !listed.datasets.includes(name));
  if (unknown.length === 0) return;
  io.stderr(
    `portcullis eval run: no dataset named ${unknown.map((name) => `'${name}'`).join(', ')}; the service has ${listed.datasets.length === 0 ? 'none' : listed.datasets.join(', ')}`,
  );
}
