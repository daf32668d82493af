// Polling, cancelling and the JUnit report of eval runs, and the eval store: statuses and the report
// fields of DESIGN.md §7, ownership (foreign ≡ unknown), the cancel semantics of SPEC.md, reclaiming
// a finished run's submission after RunRecordTtl, and reports that survive a restart through
// Evaluation:ReportsRoot (pollable and listed). Every status code of the poll, cancel and report.xml routes.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import type { TestApp } from '../helpers/test-app.js';
import { TEST_STORAGE } from '../helpers/test-storage.js';
import {
  buildEvalApp,
  junit,
  poll,
  runToEnd,
  startEvalHarness,
  startRun,
  tokenFor,
  untilFinished,
  writeDatasets,
  SteerableModel,
  type EvalHarness,
} from './evals-harness.js';
import { stripTraceId } from '../helpers/problem-body.js';

let harness: EvalHarness;
let reports: string;
let t: TestApp;
// A minute ahead of the wall clock, so tokens minted during the tests are already valid (nbf) under it.
const clock = new ManualClock(Date.now() + 60_000);
const model = new SteerableModel(clock);
const pricing = { ChatModel: { Pricing: { InputPerMillionTokens: 100_000, OutputPerMillionTokens: 200_000 } } };
const settings = () => ({ ...pricing, BundleExecution: { RunRecordTtl: '00:10:00' }, Evaluation: { ReportsRoot: reports } });

const cancel = (app: TestApp, headers: Record<string, string>, jobId: string) =>
  app.app.inject({ method: 'DELETE', url: `/api/evals/runs/${jobId}`, headers });

beforeAll(async () => {
  harness = await startEvalHarness();
  reports = join(harness.root, 'reports');
  const datasets = join(harness.root, 'datasets');
  await writeDatasets(datasets, {
    // Each `reply:` answer costs exactly $2 under the pricing above (10 input and 5 output tokens).
    'mixed.yaml': [
      'description: one case of every outcome',
      'cases:',
      '  - { id: passes, tags: [geo], input: "reply:Paris", assert: [{ type: icontains, value: paris }] }',
      '  - { id: fails, tags: [geo], input: "reply:Lyon", assert: [{ type: icontains, value: paris }] }',
      '  - { id: warns, tags: [cost], input: "reply:Paris", assert: [{ type: max-cost-usd, value: 1, severity: warn }] }',
      '  - { id: errs, tags: [broken], input: "fail" }',
      '  - { id: slow, input: "slow:1500 reply:late but fine" }',
    ].join('\n'),
    'held.jsonl': '{"id":"held","input":"gate:held"}\n',
    'held-again.jsonl': '{"id":"held","input":"gate:held-again"}\n',
    'quick.jsonl': '{"id":"quick","input":"reply:done"}\n',
    'half.jsonl': '{"id":"quick","input":"reply:done"}\n{"id":"held","input":"gate:held-half"}\n',
  });
  t = await buildEvalApp(harness, settings(), { chatModel: model, clock }, [datasets]);
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('GET /api/evals/runs/{jobId}', () => {
  it('counts the judged case executions of a running run in its progress', async () => {
    const headers = await tokenFor(harness, 'progress-watcher');
    const jobId = (await startRun(t, headers, { datasets: ['half'], parallelism: 2 })).json().jobId;
    await model.gate('held-half').reached;
    let body = (await poll(t, headers, jobId)).json();
    for (let i = 0; i < 10_000 && body.progress?.completed !== 1; i += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      body = (await poll(t, headers, jobId)).json();
    }
    expect(body).toMatchObject({ status: 'Running', progress: { completed: 1, total: 2 } });
    model.gate('held-half').open();
    const done = await untilFinished(t, headers, jobId);
    expect(done.progress).toBeUndefined();
    expect(done.counts.total).toBe(2);
  });

  it('200 reports Queued, then Running (with its progress), then Succeeded with the report fields of DESIGN §7 and no per-case results', async () => {
    const headers = await tokenFor(harness, 'poller');
    const running = (await startRun(t, headers, { datasets: ['held'] })).json().jobId;
    await model.gate('held').reached;
    // The same owner's second run waits for the first: Queued.
    const queued = (await startRun(t, headers, { datasets: ['mixed'] })).json().jobId;
    const runningBody = (await poll(t, headers, running)).json();
    expect(runningBody).toEqual({
      jobId: running,
      status: 'Running',
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      completedAt: null,
      datasets: ['held'],
      // Judged case executions out of all planned, so a client can draw a progress bar.
      progress: { completed: 0, total: 1 },
    });
    const queuedBody = (await poll(t, headers, queued)).json();
    expect(queuedBody).toMatchObject({ jobId: queued, status: 'Queued', startedAt: null, completedAt: null, datasets: ['mixed'], progress: { completed: 0, total: 5 } });
    model.gate('held').open();
    expect((await untilFinished(t, headers, running)).status).toBe('Succeeded');

    const done = await untilFinished(t, headers, queued);
    expect(Object.keys(done).sort()).toEqual(
      ['completedAt', 'costUsd', 'counts', 'createdAt', 'datasets', 'durationMs', 'jobId', 'report', 'startedAt', 'status', 'verdict'],
    );
    expect(done).toMatchObject({
      status: 'Succeeded',
      counts: { passed: 2, failed: 1, warned: 1, errored: 1, total: 5 },
      verdict: 'Fail',
      costUsd: 8,
      datasets: ['mixed'],
      report: {
        failRate: 0.4,
        failRateThreshold: 0,
        repeats: 1,
        byDataset: [{ name: 'mixed', passed: 2, failed: 1, warned: 1, errored: 1 }],
        byTag: [
          { tag: 'broken', passed: 0, failed: 0, warned: 0, errored: 1 },
          { tag: 'cost', passed: 0, failed: 0, warned: 1, errored: 0 },
          { tag: 'geo', passed: 1, failed: 1, warned: 0, errored: 0 },
        ],
        flakyCases: 0,
        passAtK: 0.6,
      },
    });
    expect(JSON.stringify(done)).not.toMatch(/"cases"|"results"|Lyon/);
    expect(done.report.tokens).toEqual({ input: 40, output: 20 });
    expect(done.durationMs).toBeGreaterThanOrEqual(1500);
    expect(Date.parse(done.completedAt) - Date.parse(done.startedAt)).toBe(done.durationMs);
  });

  it('200 with verdict Pass when the fail rate does not exceed failRateThreshold, and Warn when only warnings remain', async () => {
    const headers = await tokenFor(harness, 'lenient');
    const tolerant = await runToEnd(t, headers, { datasets: ['mixed'], failRateThreshold: 0.4 });
    expect(tolerant.verdict).toBe('Warn');
    const clean = await runToEnd(t, headers, { datasets: ['quick'] });
    expect(clean.verdict).toBe('Pass');
  });

  it('404 for an unknown id, another caller’s run and an id that is not an eval run — identically', async () => {
    const owner = await tokenFor(harness, 'owner');
    const jobId = (await runToEnd(t, owner, { datasets: ['quick'] })).jobId;
    const stranger = await tokenFor(harness, 'stranger');
    const foreign = await poll(t, stranger, jobId);
    const unknown = await poll(t, stranger, 'no-such-run');
    const pathLike = await poll(t, owner, '..%2F..%2Fetc%2Fpasswd');
    for (const res of [foreign, unknown, pathLike]) {
      expect(res.statusCode).toBe(404);
      expect({ ...stripTraceId(res.json()), instance: '' }).toEqual({ ...stripTraceId(unknown.json()), instance: '' });
    }
  });

  it('401 without a bearer token', async () => {
    expect((await poll(t, {}, 'anything')).statusCode).toBe(401);
  });
});

describe('DELETE /api/evals/runs/{jobId}', () => {
  it('200 with stopped true cancels a queued run outright; it ends Cancelled and never runs', async () => {
    const headers = await tokenFor(harness, 'canceller');
    const blocking = (await startRun(t, headers, { datasets: ['held-again'] })).json().jobId;
    await model.gate('held-again').reached;
    const queued = (await startRun(t, headers, { datasets: ['quick'] })).json().jobId;
    const res = await cancel(t, headers, queued);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stopped: true });
    const body = (await poll(t, headers, queued)).json();
    expect(body).toMatchObject({ status: 'Cancelled', startedAt: null, completedAt: expect.any(String), datasets: ['quick'] });
    expect(body.counts).toBeUndefined();
    expect(body.report).toBeUndefined();

    // An executing run answers stopped false and runs to completion.
    const executing = await cancel(t, headers, blocking);
    expect(executing.statusCode).toBe(200);
    expect(executing.json()).toEqual({ stopped: false });
    model.gate('held-again').open();
    expect((await untilFinished(t, headers, blocking)).status).toBe('Succeeded');

    // Finished runs, whether they succeeded or were cancelled, answer 409.
    for (const jobId of [blocking, queued]) {
      const again = await cancel(t, headers, jobId);
      expect(again.statusCode).toBe(409);
      expect(again.json().title).toBe('Conflict');
    }
  });

  it('404 for another caller’s run or an unknown id, identically', async () => {
    const owner = await tokenFor(harness, 'keeper');
    const jobId = (await runToEnd(t, owner, { datasets: ['quick'] })).jobId;
    const stranger = await tokenFor(harness, 'meddler');
    const foreign = await cancel(t, stranger, jobId);
    const unknown = await cancel(t, stranger, 'no-such-run');
    expect([foreign.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect({ ...stripTraceId(foreign.json()), instance: '' }).toEqual({ ...stripTraceId(unknown.json()), instance: '' });
  });

  it('401 without a bearer token', async () => {
    expect((await cancel(t, {}, 'anything')).statusCode).toBe(401);
  });
});

describe('GET /api/evals/runs/{jobId}/report.xml', () => {
  it('200 JUnit XML for the owner: a suite per dataset, failures, errors and warnings', async () => {
    const headers = await tokenFor(harness, 'ci');
    const jobId = (await runToEnd(t, headers, { datasets: ['mixed', 'quick'] })).jobId;
    const res = await junit(t, headers, jobId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = res.body;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="portcullis eval [^"]+" tests="6" failures="1" errors="1" skipped="0"/);
    expect(xml).toContain('<testsuite name="mixed" tests="5" failures="1" errors="1" skipped="0"');
    expect(xml).toContain('<testsuite name="quick" tests="1" failures="0" errors="0" skipped="0"');
    expect(xml).toMatch(/<testcase classname="mixed" name="passes" time="\d+\.\d{3}"\/>/);
    expect(xml).toMatch(/<testcase classname="mixed" name="fails"[^>]*>\s*<failure type="icontains" message="icontains: expected the output to contain &quot;paris&quot; \(any case\)">/);
    expect(xml).toContain('Output:\nLyon</failure>');
    expect(xml).toContain('<error type="errored" message="the conversation failed: The chat model is unavailable."/>');
    expect(xml).toMatch(/<testcase classname="mixed" name="warns"[^>]*>\s*<system-out>warning max-cost-usd: cost \$2 exceeds \$1<\/system-out>/);
  });

  it('409 while the run has not finished', async () => {
    const headers = await tokenFor(harness, 'impatient');
    await writeDatasets(join(harness.root, 'datasets'), { 'held-xml.jsonl': '{"id":"held","input":"gate:held-xml"}\n' });
    const jobId = (await startRun(t, headers, { datasets: ['held-xml'] })).json().jobId;
    await model.gate('held-xml').reached;
    const res = await junit(t, headers, jobId);
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toContain('application/problem+json');
    model.gate('held-xml').open();
    await untilFinished(t, headers, jobId);
  });

  it('404 for another caller’s run or an unknown id: owner only', async () => {
    const owner = await tokenFor(harness, 'publisher');
    const jobId = (await runToEnd(t, owner, { datasets: ['quick'] })).jobId;
    const stranger = await tokenFor(harness, 'reader');
    expect((await junit(t, stranger, jobId)).statusCode).toBe(404);
    expect((await junit(t, stranger, 'no-such-run')).statusCode).toBe(404);
  });

  it('401 without a bearer token', async () => {
    expect((await junit(t, {}, 'anything')).statusCode).toBe(401);
  });
});

describe('the eval store', () => {
  it('reclaims a finished run’s submission after RunRecordTtl: datasets empty, report absent, summary kept, report.xml 404', async () => {
    const headers = await tokenFor(harness, 'historian');
    const done = await runToEnd(t, headers, { datasets: ['quick'] });
    clock.advance(10 * 60 * 1000);
    const later = (await poll(t, headers, done.jobId)).json();
    expect(later).toEqual({ ...done, datasets: [], report: undefined });
    expect('report' in later).toBe(false);
    const xml = await junit(t, headers, done.jobId);
    expect(xml.statusCode).toBe(404);
    expect(xml.json().detail).toMatch(/reclaimed/);
  });

  it('files every finished report as JSON under ReportsRoot (atomic write) so it survives a restart', async () => {
    const headers = await tokenFor(harness, 'survivor');
    const done = await runToEnd(t, headers, { datasets: ['mixed'] });
    const xml = (await junit(t, headers, done.jobId)).body;
    const folders = await readdir(reports);
    const files = (await Promise.all(folders.map((f) => readdir(join(reports, f))))).flat();
    expect(files).toContain(`${done.jobId}.json`);
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
    const onDisk = folders.map((f) => join(reports, f, `${done.jobId}.json`));
    const document = JSON.parse(await readFile((await Promise.all(onDisk.map((p) => readFile(p).then(() => p, () => null)))).find(Boolean)!, 'utf8'));
    expect(document).toMatchObject({ format: 'portcullis-eval-report/1', run: { jobId: done.jobId, status: 'Succeeded' } });

    const restarted = await buildEvalApp(harness, settings(), { chatModel: model, clock }, [join(harness.root, 'datasets')]);
    try {
      expect((await poll(restarted, headers, done.jobId)).json()).toEqual(done);
      expect((await junit(restarted, headers, done.jobId)).body).toBe(xml);
      expect((await poll(restarted, await tokenFor(harness, 'stranger'), done.jobId)).statusCode).toBe(404);
      expect((await cancel(restarted, headers, done.jobId)).statusCode).toBe(409);
    } finally {
      await restarted.close();
    }
  });

  it('lists the runs kept under ReportsRoot after a restart, page by page, as their polls show them, to their owner only', async () => {
    const headers = await tokenFor(harness, 'lister');
    const other = await tokenFor(harness, 'other-lister');
    const one = await runToEnd(t, headers, { datasets: ['quick'] });
    const two = await runToEnd(t, headers, { datasets: ['mixed'] });
    const foreign = await runToEnd(t, other, { datasets: ['quick'] });
    const list = (app: TestApp, as: Record<string, string>, query = '') => app.app.inject({ method: 'GET', url: `/api/evals/runs${query}`, headers: as });
    const before = (await list(t, headers)).json();
    // Newest first, ties (the manual clock stands still) by job id: the storage's order.
    expect(before.runs.map((run: { jobId: string }) => run.jobId).sort()).toEqual([one.jobId, two.jobId].sort());

    // On Memory the restarted host's storage is empty: only the reports under ReportsRoot remain.
    const restarted = await buildEvalApp(harness, settings(), { chatModel: model, clock }, [join(harness.root, 'datasets')]);
    try {
      const after = (await list(restarted, headers)).json();
      expect(after).toEqual(before);
      expect(after.runs).toEqual(await Promise.all(after.runs.map(async (run: { jobId: string }) => (await poll(restarted, headers, run.jobId)).json<unknown>())));
      const first = (await list(restarted, headers, '?limit=1')).json();
      expect(first.runs).toEqual([after.runs[0]]);
      const second = (await list(restarted, headers, `?limit=1&cursor=${first.nextCursor}`)).json();
      expect(second.runs).toEqual([after.runs[1]]);
      if (second.nextCursor !== null) expect((await list(restarted, headers, `?limit=1&cursor=${second.nextCursor}`)).json()).toEqual({ runs: [], nextCursor: null });
      expect((await list(restarted, other)).json().runs.map((run: { jobId: string }) => run.jobId)).toEqual([foreign.jobId]);
      expect((await list(restarted, await tokenFor(harness, 'stranger'))).json()).toEqual({ runs: [], nextCursor: null });
    } finally {
      await restarted.close();
    }
  });
  // Memory only: on a durable storage a closing host leaves the run for another instance to resume
  // (DESIGN §11), which multi-process.test.ts shows with real processes.
  it.skipIf(TEST_STORAGE === 'Postgres')('files a run the host shut down under as Failed, without counts or report', async () => {
    const headers = await tokenFor(harness, 'interrupted');
    const datasets = join(harness.root, 'datasets');
    await writeDatasets(datasets, { 'held-shutdown.jsonl': '{"id":"held","input":"gate:held-shutdown"}\n' });
    const doomed = await buildEvalApp(harness, settings(), { chatModel: model, clock }, [datasets]);
    const jobId = (await startRun(doomed, headers, { datasets: ['held-shutdown'] })).json().jobId;
    await model.gate('held-shutdown').reached;
    await doomed.close();
    const restarted = await buildEvalApp(harness, settings(), { chatModel: model, clock }, [datasets]);
    try {
      const body = (await poll(restarted, headers, jobId)).json();
      expect(body).toMatchObject({ jobId, status: 'Failed', startedAt: expect.any(String), completedAt: expect.any(String), datasets: ['held-shutdown'] });
      expect(body.counts).toBeUndefined();
      expect(body.report).toBeUndefined();
    } finally {
      await restarted.close();
    }
  });
});

describe('with evaluation disabled', () => {
  it('403 for poll, cancel and report.xml; 401 still comes first without a token', async () => {
    const disabled = await buildEvalApp(harness, { Evaluation: { Enabled: false } });
    try {
      const headers = await tokenFor(harness, 'anyone');
      for (const res of [await poll(disabled, headers, 'x'), await cancel(disabled, headers, 'x'), await junit(disabled, headers, 'x')]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().detail).toMatch(/Evaluation is disabled/);
      }
      expect((await poll(disabled, {}, 'x')).statusCode).toBe(401);
    } finally {
      await disabled.close();
    }
  });
});

describe('rate limits', () => {
  it('429 for poll and report.xml beyond evals-read, and for cancel beyond evals-write', async () => {
    const limited = await buildEvalApp(harness, {
      RateLimits: { 'evals-read': { PermitsPerMinute: 1 }, 'evals-write': { PermitsPerMinute: 1 } },
    });
    try {
      const headers = await tokenFor(harness, 'limited');
      expect((await poll(limited, headers, 'x')).statusCode).toBe(404);
      expect((await poll(limited, headers, 'x')).statusCode).toBe(429);
      expect((await junit(limited, headers, 'x')).statusCode).toBe(429);
      expect((await cancel(limited, headers, 'x')).statusCode).toBe(404);
      const refused = await cancel(limited, headers, 'x');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});
