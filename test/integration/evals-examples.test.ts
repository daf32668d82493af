// The shipped example datasets under the Development setup (appsettings.Development.json: the Scripted
// model, the Default envelope, the handbook index), with a real token holding Harness.Evals.Execute.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { idpSettings } from '../helpers/idp.js';
import { GENEROUS_LIMITS, runToEnd, startEvalHarness, tokenFor, type EvalHarness } from './evals-harness.js';

const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

let harness: EvalHarness;
let t: TestApp;

beforeAll(async () => {
  harness = await startEvalHarness();
  const development = JSON.parse(await readFile(repo('appsettings.Development.json'), 'utf8'));
  const ai = merge(development.AppConfig.AI, {
    BundleExecution: { Auth: { AllowAnonymous: false } },
    Evaluation: { DatasetRoots: [repo('examples/evals')] },
    Retrieval: { Indexes: { handbook: { Root: repo('examples/knowledge') } } },
    RateLimits: GENEROUS_LIMITS,
  });
  t = await buildTestApp({ environment: 'Development', settings: idpSettings(harness.idp, ai) });
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

describe('the example datasets', () => {
  it('are listed by name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/evals/datasets', headers: await tokenFor(harness, 'dev') });
    expect(res.json().datasets).toEqual(['arithmetic', 'capitals', 'tool-use']);
  });

  it('run to Succeeded with a Fail verdict at threshold 0 and a Pass verdict at a lenient threshold', async () => {
    const headers = await tokenFor(harness, 'dev');
    const datasets = ['arithmetic', 'capitals', 'tool-use'];
    const strict = await runToEnd(t, headers, { datasets });
    expect(strict).toMatchObject({ status: 'Succeeded', verdict: 'Fail', datasets });
    // The Scripted model only echoes, so the knowledge questions fail; every tool-driven case passes.
    expect(strict.counts).toEqual({ passed: 7, failed: 5, warned: 0, errored: 0, total: 12 });
    expect(strict.report.byDataset).toEqual([
      { name: 'arithmetic', passed: 0, failed: 3, warned: 0, errored: 0 },
      { name: 'capitals', passed: 1, failed: 2, warned: 0, errored: 0 },
      { name: 'tool-use', passed: 6, failed: 0, warned: 0, errored: 0 },
    ]);
    const lenient = await runToEnd(t, headers, { datasets, failRateThreshold: 0.5 });
    expect(lenient).toMatchObject({ status: 'Succeeded', verdict: 'Pass', counts: strict.counts });
    expect(lenient.report.failRate).toBeCloseTo(5 / 12);
  });
});
