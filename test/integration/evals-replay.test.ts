// DESIGN §19 "Replay": a recorded case (as GET shows it and PUT accepts it) run against the caller's
// uploaded bundle. `replay: "all"` makes no model call (the steerable model's request log proves it)
// and passes matches-recording; a bundle whose tools changed leaves the recording and the case is
// errored `Replay diverged at step N.`; `replay: "tools"` keeps the live model while no real tool runs
// (a loopback server counts the http_fetch requests it gets: none), and a call not recorded is told
// `Not in the recording.`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { bundleZip, registerHandle } from './bundles-harness.js';
import { buildEvalApp, junit, runToEnd, startEvalHarness, tokenFor, SteerableModel, type EvalHarness } from './evals-harness.js';

let harness: EvalHarness;
let t: TestApp;
let alice: Record<string, string>;
let counting: Server;
let fetched = 0;
let url: string;
const model = new SteerableModel();

const agent = (tools: string) => `---\nid: replayed\nname: Replayed\nallowed-tools: [${tools}]\n---\nYou compute and fetch.\n`;
const CALL = { tool: 'calculator', operation: 'evaluate', arguments: { expression: '2+2' } };
const FINAL = 'Tool results:\n- calculator: {"result":4}';

function putDataset(name: string, cases: unknown[]) {
  return t.app.inject({ method: 'PUT', url: `/api/evals/datasets/mine/${name}`, headers: { ...alice, 'content-type': 'application/json' }, payload: JSON.stringify({ cases }) });
}

beforeAll(async () => {
  counting = createServer((_request, response) => {
    fetched += 1;
    response.end('live body');
  });
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(counting.address() as AddressInfo).port}/data`;
  harness = await startEvalHarness();
  t = await buildEvalApp(
    harness,
    {
      BundleExecution: { Enabled: true, TempRoot: join(harness.root, 'staging'), Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'http_fetch'], AutonomyCeiling: 'Autonomous' } } },
      Tools: { HttpFetch: { AllowedHosts: ['127.0.0.1'] } },
    },
    { chatModel: model },
  );
  alice = await tokenFor(harness, 'alice');
  const stored = await putDataset('calc', [
    {
      id: 'adds',
      input: 'call calculator evaluate {"expression":"2+2"}',
      agent: 'replayed',
      recording: { steps: [{ model: { text: '', toolCalls: [CALL] } }, { ...CALL, result: '{"result":4}', isError: false }, { model: { text: FINAL, toolCalls: [] } }] },
    },
  ]);
  expect(stored.statusCode).toBe(201);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await harness?.close();
  await new Promise((resolve) => counting.close(resolve));
});

describe('replay (DESIGN §19)', () => {
  it('shows the recording as it was put, with matches-recording as the default assertion', async () => {
    const got = (await t.app.inject({ method: 'GET', url: '/api/evals/datasets/mine/calc', headers: alice })).json();
    expect(got.cases[0]).toMatchObject({ id: 'adds', agent: 'replayed', recording: { steps: [{ model: { text: '', toolCalls: [CALL] } }, { ...CALL, result: '{"result":4}', isError: false }, { model: { text: FINAL } }] } });
  });

  it('"all" answers from the recording with no model call and passes; a bundle without the recorded tool diverges at that step', async () => {
    const handle = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': agent('calculator') }));
    const requests = model.systemPrompts.length;
    const replayed = await runToEnd(t, alice, { datasets: ['mine/calc'], subject: { handle }, replay: 'all' });
    expect(replayed).toMatchObject({ status: 'Succeeded', verdict: 'Pass', counts: { passed: 1 }, costUsd: 0 });
    expect(model.systemPrompts.length).toBe(requests);

    const changed = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': agent('clock') }));
    const diverged = await runToEnd(t, alice, { datasets: ['mine/calc'], subject: { handle: changed }, replay: 'all' });
    expect(diverged).toMatchObject({ status: 'Succeeded', counts: { errored: 1 } });
    expect((await junit(t, alice, diverged.jobId)).body).toContain('message="Replay diverged at step 2."');
    expect(model.systemPrompts.length).toBe(requests);
  });

  it('"none" (the default) runs the recorded case live, still checked against its recording', async () => {
    const handle = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': agent('calculator') }));
    const requests = model.systemPrompts.length;
    const live = await runToEnd(t, alice, { datasets: ['mine/calc'], subject: { handle } });
    expect(live).toMatchObject({ status: 'Succeeded', counts: { passed: 1 } });
    expect(model.systemPrompts.length).toBeGreaterThan(requests);
  });

  it('"tools" keeps the live model and answers every tool call from the recording: no real tool runs, a call not recorded is told so', async () => {
    const fetchCall = { tool: 'http_fetch', operation: 'get', arguments: { url } };
    const stored = await putDataset('fetches', [
      {
        id: 'recorded',
        input: `call http_fetch get ${JSON.stringify({ url })}`,
        recording: { steps: [{ model: { text: '', toolCalls: [fetchCall] } }, { ...fetchCall, result: 'recorded body', isError: false }, { model: { text: 'Tool results:\n- http_fetch: recorded body', toolCalls: [] } }] },
        assert: [{ type: 'contains', value: 'recorded body' }, { type: 'matches-recording' }],
      },
      {
        id: 'unrecorded',
        input: `call http_fetch get ${JSON.stringify({ url: `${url}?other` })}`,
        recording: { steps: [{ model: { text: 'nothing', toolCalls: [] } }] },
        assert: [{ type: 'contains', value: 'Not in the recording.' }],
      },
    ]);
    expect(stored.statusCode).toBe(201);
    const handle = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': agent('http_fetch') }));
    const requests = model.systemPrompts.length;
    const run = await runToEnd(t, alice, { datasets: ['mine/fetches'], subject: { handle }, replay: 'tools' });
    expect(run).toMatchObject({ status: 'Succeeded', counts: { passed: 2 } });
    expect(model.systemPrompts.length).toBeGreaterThan(requests);
    expect(fetched).toBe(0);
  });
});
