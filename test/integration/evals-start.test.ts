// POST /api/evals/runs: the role and toggle gate (403), names resolved only by enumerating the roots
// (404 before anything is queued), every ceiling refused as a whole (400, never truncated), dataset
// validation errors naming the file and case (400), the per-owner cap, 401 and 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import {
  buildEvalApp,
  poll,
  startEvalHarness,
  startRun,
  tokenFor,
  untilFinished,
  writeDatasets,
  SteerableModel,
  type EvalHarness,
} from './evals-harness.js';
import { withoutTraceId } from '../helpers/problem-body.js';

let harness: EvalHarness;
let t: TestApp;
const model = new SteerableModel();
const limits = {
  Evaluation: {
    MaxDatasetsPerRun: 2,
    MaxRepeats: 3,
    MaxParallelism: 8,
    MaxCaseExecutionsPerRun: 6,
    MaxDatasetBytes: 2048,
    MaxActiveRunsPerOwner: 2,
  },
};

const cases = (n: number, tag: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i + 1}`, tags: [tag(i)], input: `hello ${i + 1}` }));

beforeAll(async () => {
  harness = await startEvalHarness();
  await writeDatasets(harness.root, {
    'two.json': { cases: cases(2, () => 'smoke') },
    'four.json': { cases: cases(4, (i) => (i < 2 ? 'fast' : 'slow')) },
    'held.jsonl': '{"id":"held","input":"gate:held wait for the test"}\n',
    'held-too.jsonl': '{"id":"held","input":"gate:held-too wait for the test"}\n',
    'huge.yaml': `cases:\n  - input: ${'x'.repeat(3000)}\n`,
    'broken.yaml': 'cases:\n  - id: ok\n    input: fine\n  - id: wrong-type\n    input: hi\n    assert:\n      - { type: sounds-right }\n',
    'not-yaml.yaml': 'cases: [\n',
    'bad-line.jsonl': '{"id":"one","input":"hi"}\n{"id":"two","input":"hi","assert":[{"type":"regex","value":"("}]}\n',
  });
  t = await buildEvalApp(harness, limits, { chatModel: model });
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

async function expectProblem(res: Awaited<ReturnType<typeof startRun>>, status: number, detail?: RegExp) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  if (detail) expect(res.json().detail).toMatch(detail);
}

describe('POST /api/evals/runs', () => {
  it('202 with jobId, statusUrl and Location when a caller with Harness.Evals.Execute names known datasets', async () => {
    const headers = await tokenFor(harness, 'starter');
    const res = await startRun(t, headers, { datasets: ['two'] });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({ jobId: expect.any(String), statusUrl: `/api/evals/runs/${body.jobId}` });
    expect(res.headers.location).toBe(body.statusUrl);
    expect((await untilFinished(t, headers, body.jobId)).status).toBe('Succeeded');
  });

  it('401 without a bearer token', async () => {
    await expectProblem(await startRun(t, {}, { datasets: ['two'] }), 401);
  });

  it('403 without the role Harness.Evals.Execute, before the body is even read', async () => {
    const headers = await tokenFor(harness, 'no-role', ['Harness.Tools.Invoke']);
    await expectProblem(await startRun(t, headers, { datasets: ['two'] }), 403, /Harness\.Evals\.Execute/);
    await expectProblem(await startRun(t, headers, { nonsense: true }), 403);
  });

  it('403 when evaluation is disabled, even with the role', async () => {
    const disabled = await buildEvalApp(harness, { Evaluation: { Enabled: false } });
    try {
      await expectProblem(await startRun(disabled, await tokenFor(harness, 'starter'), { datasets: ['two'] }), 403);
    } finally {
      await disabled.close();
    }
  });

  it('404 for unknown and malformed names — paths never resolve — and nothing is queued', async () => {
    const headers = await tokenFor(harness, 'prober');
    const names = ['nope', '../two', '/etc/passwd', `${harness.root}/two.json`, 'a/b', 'two.json', 'TWO', '', '.', '..'];
    const answers = await Promise.all(names.map((name) => startRun(t, headers, { datasets: ['two', name] })));
    for (const res of answers) await expectProblem(res, 404, /not found/);
    expect(new Set(answers.map((res) => withoutTraceId(res.body))).size).toBe(1);
    // Nothing was queued: the caller can still start its full allowance of runs.
    const a = await startRun(t, headers, { datasets: ['two'] });
    const b = await startRun(t, headers, { datasets: ['two'] });
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    await untilFinished(t, headers, a.json().jobId);
    await untilFinished(t, headers, b.json().jobId);
  });

  it('400 when more datasets are named than MaxDatasetsPerRun allows', async () => {
    const res = await startRun(t, await tokenFor(harness, 'starter'), { datasets: ['two', 'four', 'held'] });
    await expectProblem(res, 400, /MaxDatasetsPerRun allows 2/);
  });

  it('400 when repeats or parallelism exceed MaxRepeats or MaxParallelism; exactly the maximum is allowed', async () => {
    const headers = await tokenFor(harness, 'starter');
    await expectProblem(await startRun(t, headers, { datasets: ['two'], repeats: 4 }), 400, /MaxRepeats \(3\)/);
    await expectProblem(await startRun(t, headers, { datasets: ['two'], parallelism: 9 }), 400, /MaxParallelism \(8\)/);
    const atMaximum = await startRun(t, headers, { datasets: ['two'], repeats: 3, parallelism: 8 });
    expect(atMaximum.statusCode).toBe(202);
    expect((await untilFinished(t, headers, atMaximum.json().jobId)).counts.total).toBe(6);
  });

  it('400 when cases × repeats after tagFilter exceed MaxCaseExecutionsPerRun; the tag filter is applied first', async () => {
    const headers = await tokenFor(harness, 'starter');
    await expectProblem(await startRun(t, headers, { datasets: ['four'], repeats: 2 }), 400, /8 cases .*MaxCaseExecutionsPerRun allows 6.*Nothing was queued/);
    const filtered = await startRun(t, headers, { datasets: ['four'], repeats: 3, tagFilter: ['fast'] });
    expect(filtered.statusCode).toBe(202);
    const done = await untilFinished(t, headers, filtered.json().jobId);
    expect(done.counts.total).toBe(6);
    expect(done.report.byTag).toEqual([{ tag: 'fast', passed: 6, failed: 0, warned: 0, errored: 0 }]);
  });

  it('400 when the tag filter selects no case at all', async () => {
    await expectProblem(await startRun(t, await tokenFor(harness, 'starter'), { datasets: ['two'], tagFilter: ['none'] }), 400, /selects no case/);
  });

  it('400 when the caller already holds MaxActiveRunsPerOwner runs; it may start again once one finished', async () => {
    const headers = await tokenFor(harness, 'busy');
    const first = await startRun(t, headers, { datasets: ['held'] });
    const second = await startRun(t, headers, { datasets: ['held-too'] });
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    await expectProblem(await startRun(t, headers, { datasets: ['two'] }), 400, /already has 2 eval runs.*MaxActiveRunsPerOwner allows 2/);
    // Another caller is not affected by this one's cap.
    const other = await startRun(t, await tokenFor(harness, 'someone-else'), { datasets: ['two'] });
    expect(other.statusCode).toBe(202);
    await model.gate('held').reached;
    model.gate('held').open();
    expect((await untilFinished(t, headers, first.json().jobId)).status).toBe('Succeeded');
    const third = await startRun(t, headers, { datasets: ['two'] });
    expect(third.statusCode).toBe(202);
    model.gate('held-too').open();
    await untilFinished(t, headers, second.json().jobId);
    await untilFinished(t, headers, third.json().jobId);
  });

  it('400 when a dataset file is larger than MaxDatasetBytes', async () => {
    await expectProblem(await startRun(t, await tokenFor(harness, 'starter'), { datasets: ['huge'] }), 400, /'huge\.yaml' is larger than Evaluation:MaxDatasetBytes \(2048 bytes\)/);
  });

  it('400 for an invalid dataset, naming the file and the case', async () => {
    const headers = await tokenFor(harness, 'starter');
    await expectProblem(await startRun(t, headers, { datasets: ['broken'] }), 400, /Dataset file 'broken\.yaml', case 'wrong-type' \(#2\): assert\[0\]\.type must be one of: equals/);
    await expectProblem(await startRun(t, headers, { datasets: ['bad-line'] }), 400, /Dataset file 'bad-line\.jsonl', line 2 \(case 'two'\): assert\[0\]\.value is not a valid regular expression/);
    await expectProblem(await startRun(t, headers, { datasets: ['not-yaml'] }), 400, /Dataset file 'not-yaml\.yaml': is not valid YAML/);
  });

  it('400 for a malformed body: unknown properties (no owner field passes), bad types, out-of-range values', async () => {
    const headers = await tokenFor(harness, 'starter');
    await expectProblem(await startRun(t, headers, { datasets: ['two'], owner: 'oid:someone' }), 400, /owner/);
    await expectProblem(await startRun(t, headers, { datasets: [] }), 400);
    await expectProblem(await startRun(t, headers, { datasets: ['two'], repeats: 0 }), 400);
    await expectProblem(await startRun(t, headers, { datasets: ['two'], failRateThreshold: 1.5 }), 400);
    await expectProblem(await startRun(t, headers, { datasets: ['two', 'two'] }), 400);
  });

  it('429 with Retry-After once the caller exhausts the evals-write policy', async () => {
    const limited = await buildEvalApp(harness, { RateLimits: { 'evals-write': { PermitsPerMinute: 1 } } });
    try {
      const headers = await tokenFor(harness, 'hasty');
      const accepted = await startRun(limited, headers, { datasets: ['two'] });
      expect(accepted.statusCode).toBe(202);
      const refused = await startRun(limited, headers, { datasets: ['two'] });
      await expectProblem(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await untilFinished(limited, headers, accepted.json().jobId);
    } finally {
      await limited.close();
    }
  });

  it('runs under the envelope of the STARTING caller: the subject’s requested tools are narrowed by it', async () => {
    await writeDatasets(harness.root, {
      'narrowed.json': {
        subject: { system: 'You compute.', tools: ['calculator', 'clock'] },
        cases: [{ id: 'add', input: 'call calculator evaluate {"expression":"2+2"}', assert: [{ type: 'contains', value: '"result":4' }] }],
      },
    });
    const envelopes = {
      BundleExecution: {
        Envelopes: {
          BySubject: {
            'math-person': { AllowedTools: ['calculator'], AutonomyCeiling: 'Autonomous' },
            'clock-person': { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' },
          },
        },
      },
    };
    const scoped = await buildEvalApp(harness, envelopes, { chatModel: model });
    try {
      const granted = await tokenFor(harness, 'math-person');
      const ran = await startRun(scoped, granted, { datasets: ['narrowed'] });
      expect((await untilFinished(scoped, granted, ran.json().jobId)).counts).toMatchObject({ passed: 1, failed: 0 });
      const narrowed = await tokenFor(harness, 'clock-person');
      const denied = await startRun(scoped, narrowed, { datasets: ['narrowed'] });
      const done = await untilFinished(scoped, narrowed, denied.json().jobId);
      expect(done.counts).toMatchObject({ passed: 0, failed: 1 });
      const xml = (await scoped.app.inject({ method: 'GET', url: `/api/evals/runs/${denied.json().jobId}/report.xml`, headers: narrowed })).body;
      expect(xml).toContain('Tool call denied by policy.');
      // Polling needs ownership only, not the role.
      expect((await poll(scoped, await tokenFor(harness, 'clock-person', []), denied.json().jobId)).statusCode).toBe(200);
    } finally {
      await scoped.close();
    }
  });
});
