// Amplification through eval runs (issue 9): a start request of a few bytes names datasets and a
// repeat count; every case × repeat is executed and its judged assertions are kept for the report.
// Cases × repeats were already bounded (MaxCaseExecutionsPerRun); what each case keeps is bounded
// by MaxAssertionsPerCase, refused at start when a dataset breaks it. Memory is sampled throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRssProbe } from '../helpers/rss-probe.js';
import type { TestApp } from '../helpers/test-app.js';
import { buildEvalApp, SteerableModel, startEvalHarness, startRun, tokenFor, untilFinished, writeDatasets, type EvalHarness } from './evals-harness.js';

let harness: EvalHarness;
let t: TestApp;

beforeAll(async () => {
  harness = await startEvalHarness();
  const assertions = (n: number) => Array.from({ length: n }, () => ({ type: 'is-json' }));
  await writeDatasets(harness.root, {
    // 4 MB of assertions on one case: unbounded, each repeat judges and keeps 100,000 results.
    'judged-forever.json': { cases: [{ id: 'bomb', input: '{}', assert: assertions(100_000) }] },
    'at-the-limit.json': { cases: [{ id: 'fine', input: '{}', assert: assertions(50) }] },
  });
  t = await buildEvalApp(harness, { Evaluation: { MaxRepeats: 50 } }, { chatModel: new SteerableModel() });
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('eval amplification', () => {
  it('refuses at start (400) a dataset whose case carries more than MaxAssertionsPerCase assertions', async () => {
    const headers = await tokenFor(harness, 'evaluator');
    const probe = startRssProbe();
    try {
      const res = await startRun(t, headers, { datasets: ['judged-forever'], repeats: 50, parallelism: 50 });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toContain("case 'bomb' (#1): assert must list at most 50 assertions.");
      const fine = await startRun(t, headers, { datasets: ['at-the-limit'], repeats: 10 });
      expect(fine.statusCode, fine.body).toBe(202);
      expect((await untilFinished(t, headers, fine.json().jobId as string)).status).toBe('Succeeded');
      // Unbounded, the refused run keeps 5,000,000 assertion results.
      expect(probe.peakGrowthMiB()).toBeLessThan(200);
      expect(probe.retainedGrowthMiB()).toBeLessThan(16);
    } finally {
      probe.stop();
    }
  });
});
