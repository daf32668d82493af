// DESIGN §19 for agent authors: an eval run whose subject is the caller's uploaded bundle (every case
// a turn of that agent: its AGENT.md as the system prompt, its allowed-tools narrowing the envelope,
// its calls on the eval surface) and a run compared with a baseline run (regressions, improvements,
// failOnRegression, JUnit marks, the webhook's verdict). Real tokens from the loopback identity
// provider; the steerable model answers as each case asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log/index.js';
import { captureLog } from '../helpers/log-capture.js';
import type { TestApp } from '../helpers/test-app.js';
import { bundleZip, registerHandle } from './bundles-harness.js';
import { buildEvalApp, junit, poll, runToEnd, startEvalHarness, startRun, tokenFor, writeDatasets, SteerableModel, type EvalHarness } from './evals-harness.js';
import { join } from 'node:path';

let harness: EvalHarness;
let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
let handle: string;
const model = new SteerableModel();
const log = captureLog();

const AGENT = '---\nid: refunds-helper\nname: Refunds helper\nallowed-tools: [clock]\n---\nYou answer questions about refunds, briefly.\n';

function decided(): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'tool.call.decided');
}

beforeAll(async () => {
  harness = await startEvalHarness();
  const datasets = join(harness.root, 'datasets');
  await writeDatasets(datasets, {
    'refunds.yaml': [
      'subject: { system: This prompt is replaced by the bundle. }',
      'cases:',
      '  - { id: answers, input: "reply:Refunds take five days", assert: [{ type: icontains, value: five }] }',
      '  - { id: tells-time, input: "call clock now {}", assert: [{ type: tool-called, value: clock }] }',
      '  - { id: no-calculator, input: "call calculator evaluate {\\"expression\\":\\"1+1\\"}", assert: [{ type: tool-called, value: calculator }] }',
    ].join('\n'),
    'flips.yaml': ['cases:', '  - { id: steady, input: "reply:yes", assert: [{ type: icontains, value: yes }] }', '  - { id: coin, input: "flip:coin", assert: [{ type: icontains, value: heads }] }'].join('\n'),
  });
  t = await buildEvalApp(
    harness,
    { BundleExecution: { Enabled: true, TempRoot: join(harness.root, 'staging') } },
    { chatModel: model, logger: createLogger({ level: 'info', destination: log.destination }) },
    [datasets],
  );
  alice = await tokenFor(harness, 'alice');
  bob = await tokenFor(harness, 'bob');
  handle = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': AGENT }));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await harness?.close();
});

describe('subject: { handle } (DESIGN §19)', () => {
  it('runs every case as a turn of the caller\'s bundle: its prompt, its allowed-tools narrowing the grant, calls on the eval surface with its id', async () => {
    const seen = model.systemPrompts.length;
    const run = await runToEnd(t, alice, { datasets: ['refunds'], subject: { handle } });
    expect(run).toMatchObject({ status: 'Succeeded', counts: { total: 3, passed: 3 } });
    const prompts = model.systemPrompts.slice(seen);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      expect(prompt).toContain('You answer questions about refunds, briefly.');
      expect(prompt).not.toContain('This prompt is replaced by the bundle.');
    }
    // The grant has the calculator; the bundle asks for the clock only, so its calculator call is refused.
    const lines = decided().filter((line) => line['surface'] === 'eval');
    expect(lines.find((line) => line['tool'] === 'clock')).toMatchObject({ verdict: 'allowed' });
    expect(lines.find((line) => line['tool'] === 'calculator')).toMatchObject({ verdict: 'denied', denial: 'not-granted' });
  });

  it('answers 404 for an unknown or foreign handle before anything is queued', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/evals/runs', headers: bob })).json().runs.length;
    for (const named of [handle, 'no-such-handle']) {
      const refused = await startRun(t, bob, { datasets: ['refunds'], subject: { handle: named } });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().detail).toContain('Bundle handle not found or expired');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/evals/runs', headers: bob })).json().runs.length).toBe(before);
  });

  it('errs the cases of a handle deleted while the run waits, with a reason that says so', async () => {
    const doomed = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': AGENT }));
    const gate = model.gate('doomed');
    await writeDatasets(join(harness.root, 'datasets'), { 'doomed.jsonl': '{"id":"first","input":"gate:doomed reply:ok"}\n{"id":"second","input":"reply:ok"}\n' });
    const jobId = (await startRun(t, alice, { datasets: ['doomed'], subject: { handle: doomed }, parallelism: 1 })).json().jobId as string;
    await gate.reached;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/bundles/${doomed}`, headers: alice })).statusCode).toBe(204);
    gate.open();
    let body = (await poll(t, alice, jobId)).json();
    while (body.status === 'Queued' || body.status === 'Running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      body = (await poll(t, alice, jobId)).json();
    }
    expect(body).toMatchObject({ status: 'Succeeded', counts: { passed: 1, errored: 1 } });
    expect((await junit(t, alice, jobId)).body).toContain('the bundle handle expired or was deleted');
  });
});

describe('baseline and failOnRegression (DESIGN §19)', () => {
  it('lists regressions and improvements per case by most frequent outcome, marks regressions in JUnit, and fails the verdict on request', async () => {
    // flip:coin answers heads, tails, heads, … across executions: repeats 1 → heads (passed).
    const first = await runToEnd(t, alice, { datasets: ['flips'] });
    expect(first).toMatchObject({ status: 'Succeeded', counts: { passed: 2 } });
    // Next execution: tails (failed) → a regression against the first run.
    const second = await runToEnd(t, alice, { datasets: ['flips'], baseline: first.jobId });
    expect(second.report.comparison).toEqual({
      baseline: first.jobId,
      regressions: [{ dataset: 'flips', caseId: 'coin', was: 'passed', now: 'failed' }],
      improvements: [],
      unchanged: 1,
    });
    const xml = (await junit(t, alice, second.jobId)).body;
    expect(xml).toContain('<property name="regression" value="passed → failed"/>');
    // Heads again: an improvement over the second run; failOnRegression has nothing to fail on.
    const third = await runToEnd(t, alice, { datasets: ['flips'], baseline: second.jobId, failOnRegression: true });
    expect(third.report.comparison).toMatchObject({ regressions: [], improvements: [{ caseId: 'coin', was: 'failed', now: 'passed' }], unchanged: 1 });
    expect(third.verdict).toBe('Pass');
    // Tails: a regression against the third, and failOnRegression makes it Fail even with a lenient threshold.
    const fourth = await runToEnd(t, alice, { datasets: ['flips'], baseline: third.jobId, failOnRegression: true, failRateThreshold: 1 });
    expect(fourth.report.comparison.regressions).toEqual([{ dataset: 'flips', caseId: 'coin', was: 'passed', now: 'failed' }]);
    expect(fourth.verdict).toBe('Fail');
  });

  it('refuses a foreign, unknown or unfinished baseline with 404', async () => {
    const mine = await runToEnd(t, alice, { datasets: ['flips'] });
    expect((await startRun(t, bob, { datasets: ['flips'], baseline: mine.jobId })).statusCode).toBe(404);
    expect((await startRun(t, alice, { datasets: ['flips'], baseline: 'no-such-run' })).statusCode).toBe(404);
    const gate = model.gate('unfinished');
    await writeDatasets(join(harness.root, 'datasets'), { 'unfinished.jsonl': '{"id":"held","input":"gate:unfinished reply:ok"}\n' });
    const running = (await startRun(t, alice, { datasets: ['unfinished'] })).json().jobId as string;
    await gate.reached;
    const refused = await startRun(t, bob, { datasets: ['flips'], baseline: running });
    expect(refused.statusCode).toBe(404);
    const own = await startRun(t, alice, { datasets: ['flips'], baseline: running });
    expect(own.statusCode).toBe(404);
    expect(own.json().detail).toContain('baseline run was not found');
    gate.open();
  });
});
