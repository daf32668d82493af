// DESIGN §19 "A run becomes a case" on both providers: POST /api/evals/datasets/mine/{name}/cases turns a
// finished bundle run of the caller into a case of their own dataset, as its next version — the user
// messages its turns received, the bundle's id, and a recording of its model answers and tool calls in
// order, redacted as its frames were. Unknown and foreign runs are the same 404, a live run (a parked
// one too) is 409, a run with a withheld frame 422. Two instances share one storage: a run executed on one becomes a case
// through the other, and appends racing through both each end as their own version. Then an eval run
// replays the recorded cases on the same bundle (`replay: "all"` and `"tools"`) and they pass. A run that
// delegated to a host agent and read a token-shaped secret is recorded with the secret redacted, and
// replays with its tools answered from the recording: the sub-agent does not run again.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { withoutIdEcho } from '../helpers/problem-body.js';
import { bundleZip, poll, registerHandle, settled, startJob } from './bundles-harness.js';
import { evalSettings, GRANT_ALL_SAFE, runToEnd, startEvalHarness, SteerableModel, tokenFor, type EvalHarness } from './evals-harness.js';

/** Evaluation:MaxDatasetBytes on both instances: room for the recorded cases below, not for much more. */
const MAX_DATASET_BYTES = 16_384;
/** Instance B's frame ceiling: the clock's answer (about 100 bytes) is withheld there, its arguments are not. */
const SMALL_CEILING = 64;
const AGENT = '---\nid: refunds-helper\nname: Refunds helper\nallowed-tools: [clock]\n---\nYou answer questions about refunds, briefly.\n';
/** The same agent, except that a person approves each clock call (DESIGN §13). */
const CAREFUL_AGENT = '---\nid: careful-helper\nname: Careful helper\nallowed-tools: [clock]\nrequire-approval: [clock]\n---\nYou ask before telling the time.\n';
/** An agent that hands its work to the host agent `relay` (Agents:DiscoveryPaths). */
const DELEGATOR = '---\nid: delegator\nname: Delegator\nallowed-tools: [delegate_task, text]\n---\nYou hand every task to the relay.\n';
const RELAY = '---\nid: relay\ndescription: Does what it is told.\n---\nDo exactly what the task says.\n';
/** Token-shaped: the redaction's GitHub rule knows it (the frames show [REDACTED] in its place). */
const SECRET = `ghp_${'Z8xk2Qm9vT4bN7cR1pL5wY3hJ6dF0sA2gE8u'}`;
const BUNDLE_LIMITS = Object.fromEntries(['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete'].map((policy) => [policy, { PermitsPerMinute: 1_000_000 }]));

type Headers = Record<string, string>;

let harness: EvalHarness;
let shared: TestStorage;
let a: TestApp;
let b: TestApp;
let alice: Headers;
let bob: Headers;
let vera: Headers;
let handle: string;
const model = new SteerableModel();

const casesUrl = (name: string) => `/api/evals/datasets/mine/${encodeURIComponent(name)}/cases`;
const addCase = (app: TestApp, headers: Headers, name: string, body: unknown) =>
  app.app.inject({ method: 'POST', url: casesUrl(name), headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const getDataset = (headers: Headers, name: string) => a.app.inject({ method: 'GET', url: `/api/evals/datasets/mine/${name}`, headers });

/** Runs `userMessages` on the bundle through `app` (it executes there) and waits until it has finished. */
async function finishedRun(app: TestApp, userMessages: string[], on = handle): Promise<string> {
  const jobId = await startJob(app.app, on, { userMessages }, alice);
  await settled(app.app, on, jobId, alice);
  return jobId;
}

beforeAll(async () => {
  harness = await startEvalHarness();
  shared = await openSharedTestStorage();
  const agents = join(harness.root, 'host-agents');
  await mkdir(join(agents, 'relay'), { recursive: true });
  await writeFile(join(agents, 'relay', 'AGENT.md'), RELAY);
  const settings = (name: string, ai: Record<string, unknown> = {}) =>
    evalSettings(
      harness,
      merge({ Agents: { DiscoveryPaths: [agents] }, BundleExecution: { Enabled: true, TempRoot: join(harness.root, name), Envelopes: { Default: { AllowedTools: [...GRANT_ALL_SAFE.AllowedTools, 'delegate_task'] } } }, Approvals: { Enabled: true }, Evaluation: { MaxDatasetBytes: MAX_DATASET_BYTES }, RateLimits: BUNDLE_LIMITS }, ai),
    );
  a = await buildTestApp({ environment: 'Production', settings: settings('a'), deps: { storage: shared.storage, instanceId: 'a', chatModel: model } });
  b = await buildTestApp({
    environment: 'Production',
    settings: settings('b', { BundleExecution: { StreamFrameCeilingBytes: SMALL_CEILING } }),
    deps: { storage: shared.storage, instanceId: 'b', chatModel: model },
  });
  alice = await tokenFor(harness, 'alice');
  bob = await tokenFor(harness, 'bob');
  vera = await tokenFor(harness, 'vera', ['Harness.Approvals.Decide']);
  handle = await registerHandle(a.app, alice, bundleZip({ 'AGENT.md': AGENT }));
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await shared?.dispose();
  await harness?.close();
});

describe('POST /api/evals/datasets/mine/{name}/cases', () => {
  it('makes a two-turn run with a tool call a case: its messages, the bundle id and every step in order', async () => {
    const jobId = await finishedRun(a, ['call clock now {}', 'reply:All done']);
    const added = await addCase(a, alice, 'recorded', { from: { handle, jobId }, tags: ['from-a-run'] });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({ name: 'recorded', version: 1, caseId: `run-${jobId}` });

    const shown = await getDataset(alice, 'recorded');
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ name: 'recorded', version: 1 });
    const [recorded] = shown.json().cases;
    expect(recorded).toEqual({
      id: `run-${jobId}`,
      tags: ['from-a-run'],
      messages: ['call clock now {}', 'reply:All done'],
      agent: 'refunds-helper',
      recording: {
        steps: [
          { model: { text: '', toolCalls: [{ tool: 'clock', operation: 'now', arguments: {} }] } },
          { tool: 'clock', operation: 'now', arguments: {}, result: expect.stringContaining('"iso"'), isError: false },
          { model: { text: expect.stringMatching(/^Tool results:\n- clock: \{"iso"/), toolCalls: [] } },
          { model: { text: 'All done', toolCalls: [] } },
        ],
      },
    });
  });

  it('records a denied call with isError and keeps the redacted text of messages and answers', async () => {
    // The bundle asks for the clock only: the calculator is denied (and the model told so).
    const jobId = await finishedRun(a, ['call calculator evaluate {"expression":"1+1"}', 'reply:my password=hunter2hunter2 is safe']);
    expect((await addCase(a, alice, 'recorded', { from: { handle, jobId }, id: 'denied-and-redacted' })).json()).toEqual({ name: 'recorded', version: 2, caseId: 'denied-and-redacted' });
    const recorded = (await getDataset(alice, 'recorded')).json().cases[1];
    expect(recorded.recording.steps[1]).toEqual({ tool: 'calculator', operation: 'evaluate', arguments: { expression: '1+1' }, result: 'Tool call denied by policy.', isError: true });
    expect(JSON.stringify(recorded)).not.toContain('hunter2');
    expect(recorded.messages[1]).toContain('[REDACTED]');
    expect(recorded.recording.steps.at(-1).model.text).toContain('[REDACTED]');
  });

  it('answers 404 alike for an unknown run, a foreign one and one named under another handle of the caller', async () => {
    const jobId = await finishedRun(a, ['reply:mine']);
    const other = await registerHandle(a.app, alice, bundleZip({ 'AGENT.md': AGENT }));
    const answers = [
      await addCase(a, alice, 'refused', { from: { handle, jobId: 'no-such-run' } }),
      await addCase(a, bob, 'refused', { from: { handle, jobId } }),
      await addCase(a, alice, 'refused', { from: { handle: other, jobId } }),
      await addCase(a, alice, 'refused', { from: { handle: 'no-such-handle', jobId } }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().detail).toBe('Bundle run not found. It may never have existed, expired, or belongs to a different caller.');
      expect(withoutIdEcho(answer.body)).toBe(withoutIdEcho(answers[0]!.body));
    }
    expect((await getDataset(alice, 'refused')).statusCode).toBe(404);
  });

  it('answers 409 while the run is running, and makes it a case once it has finished', async () => {
    const gate = model.gate('held');
    const jobId = await startJob(a.app, handle, { userMessages: ['gate:held reply:held answer'] }, alice);
    await gate.reached;
    const early = await addCase(a, alice, 'recorded', { from: { handle, jobId }, id: 'was-held' });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/has not finished yet/);
    gate.open();
    await settled(a.app, handle, jobId, alice);
    expect((await addCase(a, alice, 'recorded', { from: { handle, jobId }, id: 'was-held' })).json()).toMatchObject({ version: 3, caseId: 'was-held' });
  });

  it('keeps working after the run’s handle is gone: the run record carries the agent and messages', async () => {
    const doomed = await registerHandle(a.app, alice, bundleZip({ 'AGENT.md': AGENT }));
    const jobId = await finishedRun(a, ['reply:outlived'], doomed);
    expect((await a.app.inject({ method: 'DELETE', url: `/api/bundles/${doomed}`, headers: alice })).statusCode).toBe(204);
    const added = await addCase(a, alice, 'outlived', { from: { handle: doomed, jobId } });
    expect(added.statusCode, added.body).toBe(201);
    expect((await getDataset(alice, 'outlived')).json().cases[0]).toMatchObject({ agent: 'refunds-helper', messages: ['reply:outlived'] });
  });

  it('refuses an id the dataset already has (400 naming the case), and replays an Idempotency-Key’s answer', async () => {
    const jobId = await finishedRun(a, ['reply:twice']);
    expect((await addCase(a, alice, 'twice', { from: { handle, jobId } })).statusCode).toBe(201);
    const again = await addCase(a, alice, 'twice', { from: { handle, jobId } });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toContain(`case 'run-${jobId}'`);
    const keyed = { ...alice, 'idempotency-key': 'add-case-1' };
    const first = await addCase(a, keyed, 'twice', { from: { handle, jobId }, id: 'keyed' });
    const replayed = await addCase(a, keyed, 'twice', { from: { handle, jobId }, id: 'keyed' });
    expect(first.json()).toEqual({ name: 'twice', version: 2, caseId: 'keyed' });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(first.body);
    expect((await getDataset(alice, 'twice')).json().version).toBe(2);
  });

  it('refuses bodies and names it cannot use with 400, and callers without the role with 403', async () => {
    const jobId = await finishedRun(a, ['reply:body']);
    expect((await addCase(a, alice, 'Bad_Name', { from: { handle, jobId } })).statusCode).toBe(400);
    expect((await addCase(a, alice, 'body', { from: { handle } })).statusCode).toBe(400);
    expect((await addCase(a, alice, 'body', { from: { handle, jobId }, owner: 'bob' })).statusCode).toBe(400);
    const badAssert = await addCase(a, alice, 'body', { from: { handle, jobId }, assert: [{ type: 'sounds-right' }] });
    expect(badAssert.statusCode).toBe(400);
    expect(badAssert.json().detail).toContain(`case 'run-${jobId}'`);
    // The new version is bounded as a PUT is: a dataset near Evaluation:MaxDatasetBytes has no room for the case.
    const full = { description: 'x'.repeat(MAX_DATASET_BYTES - 100), cases: [{ id: 'only', input: 'hi' }] };
    const put = await a.app.inject({ method: 'PUT', url: '/api/evals/datasets/mine/full', headers: { ...alice, 'content-type': 'application/json' }, payload: JSON.stringify(full) });
    expect(put.statusCode).toBe(201);
    const tooLarge = await addCase(a, alice, 'full', { from: { handle, jobId } });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().detail).toContain('larger than Evaluation:MaxDatasetBytes');
    expect((await getDataset(alice, 'full')).json().version).toBe(1);
    const roleless = await tokenFor(harness, 'alice', []);
    expect((await addCase(a, roleless, 'body', { from: { handle, jobId } })).statusCode).toBe(403);
    expect((await getDataset(alice, 'body')).statusCode).toBe(404);
  });
});

describe('across two instances sharing one storage', () => {
  it('makes a run executed on one instance a case through the other', async () => {
    const jobId = await finishedRun(b, ['reply:executed on b']);
    const added = await addCase(a, alice, 'across', { from: { handle, jobId } });
    expect(added.statusCode, added.body).toBe(201);
    expect((await getDataset(alice, 'across')).json().cases[0].recording).toEqual({ steps: [{ model: { text: 'executed on b', toolCalls: [] } }] });
  });

  it('answers 422 for a run with a frame withheld above the frame ceiling, and stores nothing', async () => {
    const jobId = await finishedRun(b, ['call clock now {}']);
    const refused = await addCase(a, alice, 'withheld', { from: { handle, jobId } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ title: 'Run not recordable', type: 'urn:portcullis:problem:run-not-recordable' });
    expect(refused.json().detail).toContain('withheld above BundleExecution:StreamFrameCeilingBytes');
    expect((await getDataset(alice, 'withheld')).statusCode).toBe(404);
  });

  it('ends appends racing through both instances as one version each, with every case kept', async () => {
    const runs = await Promise.all([finishedRun(a, ['reply:one']), finishedRun(a, ['reply:two']), finishedRun(b, ['reply:three'])]);
    for (let round = 0; round < 2; round += 1) {
      const name = `raced-${round}`;
      const answers = await Promise.all(runs.map((jobId, index) => addCase(index % 2 === 0 ? a : b, alice, name, { from: { handle, jobId } })));
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
      expect(answers.map((answer) => answer.json<{ version: number }>().version).sort()).toEqual([1, 2, 3]);
      const shown = (await getDataset(alice, name)).json();
      expect(shown.version).toBe(3);
      expect(shown.cases.map((c: { id: string }) => c.id).sort()).toEqual(runs.map((jobId) => `run-${jobId}`).sort());
    }
  });
});

describe('a run that waited for an approval', () => {
  it('is 409 while it waits, and once resumed records the call announced before and answered after as one step', async () => {
    const careful = await registerHandle(a.app, alice, bundleZip({ 'AGENT.md': CAREFUL_AGENT }));
    const jobId = await startJob(a.app, careful, { userMessages: ['call clock now {}', 'reply:Thanks'] }, alice);
    const waiting = await eventually(async () => (await poll(a.app, careful, jobId, alice)).json<{ pendingApprovals?: Array<{ approvalId: string }> }>().pendingApprovals?.[0]);
    expect((await addCase(a, alice, 'parked', { from: { handle: careful, jobId } })).statusCode).toBe(409);
    // Decided on A, so the run resumes there (B's frame ceiling would withhold the clock's answer).
    const decided = await a.app.inject({ method: 'POST', url: `/api/approvals/${waiting.approvalId}/decision`, headers: vera, payload: { decision: 'Approve' } });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await settled(a.app, careful, jobId, alice)).toMatchObject({ status: 'Succeeded' });
    expect((await addCase(b, alice, 'parked', { from: { handle: careful, jobId } })).statusCode).toBe(201);
    const recorded = (await getDataset(alice, 'parked')).json().cases[0];
    expect(recorded.agent).toBe('careful-helper');
    expect(recorded.recording.steps.map((step: { model?: { text: string }; tool?: string }) => (step.model === undefined ? `tool:${step.tool}` : `model:${step.model.text.split('\n')[0]}`))).toEqual([
      'model:',
      'tool:clock',
      'model:Tool results:',
      'model:Thanks',
    ]);
    const replayed = await runToEnd(a, alice, { datasets: ['mine/parked'], subject: { handle: careful }, replay: 'all' });
    expect(replayed).toMatchObject({ status: 'Succeeded', counts: { total: 1, passed: 1 } });
  });
});

describe('a run that delegated to a host agent, and read a secret', () => {
  it('records the delegation and a tool output holding a token-shaped secret as the frames showed them (redacted), and replays both with no sub-agent run', async () => {
    const delegator = await registerHandle(a.app, alice, bundleZip({ 'AGENT.md': DELEGATOR }));
    const delegation = `call delegate_task run ${JSON.stringify({ agent: 'relay', task: 'reply:Refund 7 is approved.' })}`;
    const extraction = `call text extract ${JSON.stringify({ text: `deploy with ${SECRET} today`, pattern: 'ghp_\\w+' })}`;
    const jobId = await startJob(a.app, delegator, { userMessages: [delegation, extraction, 'reply:Handed over'] }, alice);
    expect(await settled(a.app, delegator, jobId, alice)).toMatchObject({ status: 'Succeeded' });
    expect((await addCase(a, alice, 'delegated', { from: { handle: delegator, jobId }, id: 'handed-over' })).statusCode).toBe(201);
    const recorded = (await getDataset(alice, 'delegated')).json().cases[0];
    expect(recorded.agent).toBe('delegator');
    const tools = recorded.recording.steps.filter((step: { tool?: string }) => step.tool !== undefined);
    expect(tools[0]).toEqual({ tool: 'delegate_task', operation: 'run', arguments: { agent: 'relay', task: 'reply:Refund 7 is approved.' }, result: 'Refund 7 is approved.', isError: false });
    expect(tools[1]).toMatchObject({ tool: 'text', operation: 'extract', isError: false });
    expect(tools[1].result).toContain('[REDACTED]');
    expect(JSON.stringify(recorded)).not.toContain(SECRET);

    // "tools": the live model, every tool answered from the recording — the relay never runs.
    const relayPrompts = () => model.systemPrompts.filter((prompt) => prompt.includes('Do exactly what the task says.')).length;
    const before = relayPrompts();
    expect(before).toBe(1);
    const replayed = await runToEnd(a, alice, { datasets: ['mine/delegated'], subject: { handle: delegator }, replay: 'tools' });
    expect(replayed).toMatchObject({ status: 'Succeeded', counts: { total: 1, passed: 1 } });
    expect(relayPrompts()).toBe(before);
  });
});

describe('the recorded cases run on the bundle they were made from', () => {
  it('pass with replay "all" (every model answer and tool result from the recording) and with replay "tools"', async () => {
    const all = await runToEnd(a, alice, { datasets: ['mine/recorded'], subject: { handle }, replay: 'all' });
    // The JUnit report names a case that did not pass, and why.
    const xml = (await a.app.inject({ method: 'GET', url: `/api/evals/runs/${all.jobId}/report.xml`, headers: alice })).body;
    expect(all, xml).toMatchObject({ status: 'Succeeded', counts: { total: 3, passed: 3 }, verdict: 'Pass' });
    const tools = await runToEnd(a, alice, { datasets: ['mine/recorded'], subject: { handle }, replay: 'tools' });
    expect(tools).toMatchObject({ status: 'Succeeded', counts: { total: 3, passed: 3 } });
  });
});
