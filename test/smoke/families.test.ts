// One smoke test per family, in one service on the Memory storage with the offline Scripted model:
// the quick subset (`npm run test:quick`, vitest.quick.config.ts) runs these beside the unit tests so
// that a change which breaks a family's front door fails the inner loop, not only CI. Each goes through
// HTTP end to end — upload and run a bundle, submit and run a workflow, list and invoke a tool, run an
// eval — and checks the answer a caller reads, not only a status.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, registerHandle, settled, startJob } from '../integration/bundles-harness.js';
import { chain, isFinal, pollUntil, start, submit, toolStep } from '../integration/workflows-harness.js';

let dir: string;
let t: TestApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-smoke-'));
  await writeFile(join(dir, 'sums.jsonl'), `${JSON.stringify({ id: 'echoes', input: 'hello', assert: [{ type: 'contains', value: 'You said: hello' }] })}\n`);
  t = await buildTestApp({
    settings: bundleSettings(join(dir, 'staging'), {
      BundleExecution: { Auth: { AllowAnonymous: true, AnonymousRoles: ['Harness.Tools.Invoke', 'Harness.Evals.Execute'] } },
      DirectToolInvocation: { Enabled: true },
      Evaluation: { Enabled: true, DatasetRoots: [dir] },
    }),
  });
}, 30_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('smoke: every family answers through its front door', () => {
  it('bundles: uploads an agent, runs a conversation with a tool call and polls its answer', async () => {
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['call calculator evaluate {"expression":"6*7"}'] });
    const run = await settled(t.app, handle, jobId);
    expect(run).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, totalToolInvocations: 1 } });
    expect(JSON.stringify(run)).toContain('42');
  });

  it('workflows: submits a one-step DAG, runs it and reads the step output', async () => {
    const id = await submit(t.app, chain('smoke', toolStep('add', 'calculator', 'evaluate', { expression: '20+22' })));
    const run = await pollUntil(t.app, (await start(t.app, id)).statusUrl, isFinal);
    expect(run.status).toBe('Succeeded');
    expect(JSON.stringify(run.steps[0])).toContain('42');
  });

  it('tools: lists the catalog and invokes a tool synchronously', async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/tools' });
    expect(listed.json().tools.map((tool: { name: string }) => tool.name)).toContain('calculator');
    const invoked = await t.app.inject({ method: 'POST', url: '/api/tools/calculator/invoke', payload: { operation: 'evaluate', parameters: { expression: '6*7' } } });
    expect(invoked.statusCode).toBe(200);
    expect(invoked.json()).toMatchObject({ succeeded: true });
    expect(JSON.stringify(invoked.json().output)).toContain('42');
  });

  it('evals: runs a dataset against the model and reads the verdict and counts', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/api/evals/runs', payload: { datasets: ['sums'] } });
    expect(started.statusCode).toBe(202);
    let run = started.json();
    for (let i = 0; i < 500 && !['Succeeded', 'Failed', 'Cancelled'].includes(run.status); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      run = (await t.app.inject({ method: 'GET', url: `/api/evals/runs/${started.json().jobId}` })).json();
    }
    expect(run).toMatchObject({ status: 'Succeeded', verdict: 'Pass', counts: { passed: 1, total: 1 } });
  });
});
