// Workflow runs over HTTP: every row of SPEC.md's workflow run state table, every step type, the
// gate approve/reject/timeout/cancel paths, cancellation reaching model and tool calls, the poll
// projection, redaction, approvals, and run records swept after RunRecordTtl. A ManualClock drives
// gate timeouts and record expiry; a held chat model and a hanging HTTP server keep steps running.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createScriptedModel, type ChatModel } from '../../src/models/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  branchStep,
  chain,
  edges,
  gateStep,
  HANDBOOK,
  heldModel,
  isFinal,
  llmStep,
  poll,
  pollUntil,
  retrievalStep,
  start,
  statusIs,
  subPlanStep,
  submit,
  toolStep,
  until,
  workflowSettings,
} from './workflows-harness.js';

const GITHUB_TOKEN = 'ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const clock = new ManualClock(Date.now());
const held = heldModel();
const scripted = createScriptedModel();
/** Prompts starting with "hold:" go to the held model; the rest to the Scripted echo. */
const chatModel: ChatModel = {
  ...scripted,
  stream: (request) => (request.messages.at(-1)?.content.startsWith('hold:') ? held.model.stream(request) : scripted.stream(request)),
};

let t: TestApp;
let hanging: Server;
let hangingUrl: string;
const hangingRequests: Array<{ closed: boolean }> = [];

beforeAll(async () => {
  hanging = createServer((req) => {
    const seen = { closed: false };
    hangingRequests.push(seen);
    req.socket.once('close', () => (seen.closed = true));
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
  t = await buildTestApp({
    settings: workflowSettings({ Workflows: { MaxActiveRunsPerOwner: 3 }, Tools: { HttpFetch: { AllowedHosts: ['127.0.0.1'], TimeoutSeconds: 60 } } }),
    deps: { clock, chatModel },
  });
});
afterAll(async () => {
  await t.close();
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

const cancel = (statusUrl: string) => t.app.inject({ method: 'DELETE', url: statusUrl });
const decide = (statusUrl: string, approvalId: string, body: object) =>
  t.app.inject({ method: 'POST', url: `${statusUrl}/approvals/${approvalId}`, payload: body });

async function blockedRun(name: string, message = 'Proceed?') {
  const workflowId = await submit(t.app, chain(name, toolStep('before'), gateStep('gate', message), toolStep('after')));
  const run = await start(t.app, workflowId);
  const blocked = await pollUntil(t.app, run.statusUrl, statusIs('Blocked'));
  return { workflowId, ...run, approvalId: blocked.pendingApprovals[0].approvalId as string, blocked };
}

describe('the workflow run state table', () => {
  it('(none) → start-run: 202 with jobId and statusUrl and a Location, admitted Running when a slot is free, then runs to Succeeded', async () => {
    const workflowId = await submit(t.app, chain('simple', toolStep('a'), toolStep('b')));
    const res = await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs` });
    expect(res.statusCode).toBe(202);
    const { jobId, statusUrl } = res.json();
    expect(Object.keys(res.json()).sort()).toEqual(['jobId', 'statusUrl']);
    expect(statusUrl).toBe(`/api/workflows/${workflowId}/runs/${jobId}`);
    expect(res.headers.location).toBe(statusUrl);
    // With a slot free on this instance the run is admitted already begun (decision 2806): a poll
    // right away never sees it Queued. (A run waiting for a slot is Queued: the cancel tests below.)
    const first = (await poll(t.app, statusUrl)).status;
    expect(['Running', 'Succeeded']).toContain(first);
    const done = await pollUntil(t.app, statusUrl, isFinal);
    expect(done).toMatchObject({ status: 'Succeeded', error: null, pendingApprovals: [] });
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
  });

  it('refuses a second run of a workflow with a live run, with 409, until it ends', async () => {
    const { workflowId, statusUrl } = await blockedRun('one-at-a-time');
    const second = await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs` });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ status: 409, title: 'Conflict' });
    await cancel(statusUrl);
    await start(t.app, workflowId).then((run) => pollUntil(t.app, run.statusUrl, statusIs('Blocked')).then(() => cancel(run.statusUrl)));
  });

  it('refuses a run beyond MaxActiveRunsPerOwner with 409, counting Queued, Running and Blocked runs', async () => {
    const runs = [await blockedRun('cap-1'), await blockedRun('cap-2'), await blockedRun('cap-3')];
    const fourth = await submit(t.app, chain('cap-4', toolStep('a')));
    const refused = await t.app.inject({ method: 'POST', url: `/api/workflows/${fourth}/runs` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('maximum of 3 live workflow runs');
    await cancel(runs[0]!.statusUrl);
    await start(t.app, fourth);
    for (const run of runs.slice(1)) await cancel(run.statusUrl);
  });

  it('Queued → cancel: Cancelled at once with stopped true, nothing runs', async () => {
    // One run at a time on this host, and that one held: the next stays Queued, whatever the storage's speed.
    const one = await buildTestApp({ settings: workflowSettings({ Workflows: { MaxConcurrentRuns: 1 } }), deps: { clock, chatModel } });
    try {
      const busy = await start(one.app, await submit(one.app, chain('busy', llmStep('wait', 'hold: busy'))));
      await until(() => held.calls.length === 1);
      const workflowId = await submit(one.app, chain('queued-cancel', toolStep('a')));
      const { statusUrl } = await start(one.app, workflowId);
      const res = await one.app.inject({ method: 'DELETE', url: statusUrl });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ stopped: true, withdrawnApprovals: 0 });
      const run = await poll(one.app, statusUrl);
      expect(run).toMatchObject({ status: 'Cancelled', error: 'The run was cancelled.', startedAt: null });
      expect(run.completedAt).toEqual(expect.any(String));
      expect(run.steps[0].status).toBe('Pending');
      held.calls.shift()!.release('done');
      await pollUntil(one.app, busy.statusUrl, isFinal);
      await start(one.app, workflowId).then((next) => pollUntil(one.app, next.statusUrl, isFinal));
    } finally {
      await one.close();
    }
  });

  it('Running → cancel: signalled with stopped false, the abort reaches the model call, the run ends Cancelled', async () => {
    const workflowId = await submit(t.app, chain('running-cancel', llmStep('think', 'hold: think hard')));
    const { statusUrl } = await start(t.app, workflowId);
    const calls = held.calls.length;
    await until(() => held.calls.length > calls);
    expect((await poll(t.app, statusUrl)).status).toBe('Running');
    const res = await cancel(statusUrl);
    expect(res.json()).toEqual({ stopped: false, withdrawnApprovals: 0 });
    expect(held.calls.at(-1)!.request.signal.aborted).toBe(true);
    const run = await pollUntil(t.app, statusUrl, isFinal);
    expect(run).toMatchObject({ status: 'Cancelled', error: 'The run was cancelled.' });
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'The run was cancelled.' });
  });

  it('Running → cancel: the abort reaches a running tool call (its HTTP request is dropped)', async () => {
    const workflowId = await submit(t.app, chain('tool-cancel', toolStep('fetch', 'http_fetch', 'get', { url: hangingUrl })));
    const { statusUrl } = await start(t.app, workflowId);
    const requests = hangingRequests.length;
    await until(() => hangingRequests.length > requests);
    expect((await cancel(statusUrl)).json()).toEqual({ stopped: false, withdrawnApprovals: 0 });
    await until(() => hangingRequests.at(-1)!.closed);
    expect((await pollUntil(t.app, statusUrl, isFinal)).status).toBe('Cancelled');
  });

  it('Blocked → cancel: the run stops, then its approvals are withdrawn and counted; it ends Cancelled', async () => {
    const { statusUrl, approvalId } = await blockedRun('blocked-cancel');
    const res = await cancel(statusUrl);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stopped: false, withdrawnApprovals: 1 });
    const run = await poll(t.app, statusUrl);
    expect(run).toMatchObject({ status: 'Cancelled', error: 'The run was cancelled.', pendingApprovals: [] });
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Failed', 'Pending']);
    expect((await decide(statusUrl, approvalId, { decision: 'Approve' })).statusCode).toBe(409);
  });

  it('any final state → cancel: unchanged, 409', async () => {
    const succeeded = await start(t.app, await submit(t.app, chain('final-ok', toolStep('a'))));
    const failed = await start(t.app, await submit(t.app, chain('final-bad', toolStep('a', 'json', 'query', { data: {}, expression: '[[[' }))));
    const cancelled = await start(t.app, await submit(t.app, chain('final-cancelled', gateStep('gate'), toolStep('a'))));
    await pollUntil(t.app, cancelled.statusUrl, statusIs('Blocked'));
    await cancel(cancelled.statusUrl);
    for (const [run, status] of [[succeeded, 'Succeeded'], [failed, 'Failed'], [cancelled, 'Cancelled']] as const) {
      await pollUntil(t.app, run.statusUrl, isFinal);
      const res = await cancel(run.statusUrl);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ status: 409, detail: 'The run has already finished.' });
      expect((await poll(t.app, run.statusUrl)).status).toBe(status);
    }
  });

  it('a Blocked run keeps its job id and its hold on the workflow, and resumes on the same id', async () => {
    const { workflowId, jobId, statusUrl, approvalId } = await blockedRun('resume');
    expect((await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs` })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/workflows/${workflowId}` })).statusCode).toBe(409);
    expect((await decide(statusUrl, approvalId, { decision: 'Approve' })).json()).toEqual({ approvalId, decision: 'Approve' });
    const done = await pollUntil(t.app, statusUrl, isFinal);
    expect(done).toMatchObject({ jobId, status: 'Succeeded' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/workflows/${workflowId}` })).statusCode).toBe(204);
    expect((await poll(t.app, statusUrl)).status).toBe('Succeeded');
  });
});

describe('human gates', () => {
  it('approve: the gate succeeds with the decision and comment, the run finishes', async () => {
    const { statusUrl, approvalId, blocked } = await blockedRun('gate-approve', 'Ship at {{ steps.before.output.iso }}?');
    expect(blocked.pendingApprovals).toEqual([
      { approvalId, stepName: 'gate', message: expect.stringMatching(/^Ship at \d{4}-\d\d-\d\dT.*Z\?$/), createdAt: expect.any(String) },
    ]);
    expect(blocked.steps[1].status).toBe('Waiting');
    await decide(statusUrl, approvalId, { decision: 'Approve', comment: 'looks good' });
    const run = await pollUntil(t.app, statusUrl, isFinal);
    expect(run.steps[1]).toMatchObject({ status: 'Succeeded', output: { decision: 'Approve', comment: 'looks good' } });
    expect(run.status).toBe('Succeeded');
  });

  it('reject: the gate step fails and so does the run', async () => {
    const { statusUrl, approvalId } = await blockedRun('gate-reject');
    expect((await decide(statusUrl, approvalId, { decision: 'Reject', comment: 'no' })).json()).toEqual({ approvalId, decision: 'Reject' });
    const run = await pollUntil(t.app, statusUrl, isFinal);
    expect(run).toMatchObject({ status: 'Failed', error: "The step 'gate' failed: The approval was rejected." });
    expect(run.steps[1]).toMatchObject({ status: 'Failed', error: 'The approval was rejected.', output: { decision: 'Reject', comment: 'no' } });
    expect(run.steps[2].status).toBe('Pending');
  });

  it('timeout: expiry counts as a rejection and the approval can no longer be answered', async () => {
    const workflowId = await submit(t.app, chain('gate-timeout', gateStep('gate', 'Quick!', '00:10:00'), toolStep('after')));
    const { statusUrl } = await start(t.app, workflowId);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'));
    clock.advance(9 * 60_000);
    expect((await poll(t.app, statusUrl)).status).toBe('Blocked');
    clock.advance(60_000);
    const run = await pollUntil(t.app, statusUrl, isFinal);
    expect(run).toMatchObject({ status: 'Failed', pendingApprovals: [] });
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'The approval timed out, which counts as a rejection.', output: { decision: 'Reject', comment: null } });
    expect((await decide(statusUrl, blocked.pendingApprovals[0].approvalId, { decision: 'Approve' })).statusCode).toBe(409);
  });

  it('answers an approval once: a second decision is 409, an unknown approval 404, a malformed body 400', async () => {
    const { statusUrl, approvalId } = await blockedRun('gate-once');
    expect((await decide(statusUrl, 'no-such-approval', { decision: 'Approve' })).statusCode).toBe(404);
    const maybe = await decide(statusUrl, approvalId, { decision: 'Maybe' });
    expect(maybe.statusCode).toBe(400);
    expect(maybe.json().detail).toBe('body/decision must be one of: Approve, Reject.');
    expect((await decide(statusUrl, approvalId, { decision: 'Approve', owner: 'me' })).statusCode).toBe(400);
    expect((await decide(statusUrl, approvalId, { decision: 'Approve' })).statusCode).toBe(200);
    const again = await decide(statusUrl, approvalId, { decision: 'Reject' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('The approval was already decided, timed out or withdrawn.');
    await pollUntil(t.app, statusUrl, isFinal);
  });
});

describe('step types', () => {
  it('LlmCall: templated prompt and system go to the chat model; the output is its text', async () => {
    const workflowId = await submit(t.app, {
      ...chain('llm', llmStep('ask', 'hold: summarise {{ input.topic }}', { system: 'Be brief about {{ input.topic }}.', maxOutputTokens: 77 }), llmStep('echo', 'Relay {{ steps.ask.output }}')),
      configuration: { input: { topic: 'gates' } },
    });
    const { statusUrl } = await start(t.app, workflowId);
    const calls = held.calls.length;
    await until(() => held.calls.length > calls);
    const { request, release } = held.calls.at(-1)!;
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief about gates.' },
      { role: 'user', content: 'hold: summarise gates' },
    ]);
    expect(request.maxOutputTokens).toBe(77);
    expect(request.tools).toEqual([]);
    release('Gates park runs.');
    const run = await pollUntil(t.app, statusUrl, isFinal);
    expect(run.steps.map((s: { output: unknown }) => s.output)).toEqual(['Gates park runs.', 'You said: Relay Gates park runs.']);
  });

  it('ToolUse: runs through the governor under the starting caller’s envelope; output parsed as JSON, parameters keep their types', async () => {
    const workflowId = await submit(t.app, {
      ...chain('tools', toolStep('now', 'clock', 'now', { timeZone: '{{ input.zone }}' }), toolStep('pick', 'json', 'query', { data: '{{ steps.now.output }}', expression: 'timeZone' })),
      configuration: { input: { zone: 'Asia/Tokyo' } },
    });
    const run = await pollUntil(t.app, (await start(t.app, workflowId)).statusUrl, isFinal);
    expect(run.status).toBe('Succeeded');
    expect(run.steps[0].output).toMatchObject({ timeZone: 'Asia/Tokyo', epochMs: expect.any(Number) });
    expect(run.steps[1].output).toEqual({ result: 'Asia/Tokyo' });
  });

  it('ToolUse: a tool that reports failure fails its step and the run; one the envelope does not grant refuses the start', async () => {
    const failing = await pollUntil(t.app, (await start(t.app, await submit(t.app, chain('t-fail', toolStep('q', 'json', 'query', { data: {}, expression: '[[[' }))))).statusUrl, isFinal);
    expect(failing).toMatchObject({ status: 'Failed', steps: [{ status: 'Failed', error: expect.stringMatching(/^The tool reported a failure: /) }] });
    const deniedId = await submit(t.app, chain('t-denied', toolStep('m', 'memory', 'list')));
    const denied = await t.app.inject({ method: 'POST', url: `/api/workflows/${deniedId}/runs` });
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toMatchObject({
      type: 'urn:portcullis:problem:validation-failed',
      diagnostics: [{ code: 'tool-not-granted', step: 'm', message: "Step 'm': the tool 'memory' is not one the starting caller's envelope grants; see GET /api/tools." }],
    });
    const runs = await t.app.inject({ method: 'GET', url: `/api/workflows/runs?workflowId=${deniedId}` });
    expect(runs.json().runs).toEqual([]);
    // Literal parameters are checked at submit; a template is known only when it renders.
    const templated = { ...chain('t-invalid', toolStep('n', 'clock', 'now', { timeZone: '{{ input.zone }}' })), configuration: { input: { zone: 7 } } };
    const invalid = await pollUntil(t.app, (await start(t.app, await submit(t.app, templated))).statusUrl, isFinal);
    expect(invalid.steps[0].error).toMatch(/^The tool parameters are invalid: /);
  });

  it('ConditionalBranch: takes one branch, skips the other and its descendants, joins after', async () => {
    const definition = (threshold: number) => ({
      name: `branch-${threshold}`,
      steps: [
        toolStep('now'),
        branchStep('late', `steps.now.output.epochMs > ${threshold}`, 'yes', 'no'),
        toolStep('yes'),
        toolStep('no'),
        toolStep('no-more'),
        toolStep('join'),
      ],
      edges: edges('now>late', 'late>yes', 'late>no', 'no>no-more', 'yes>join', 'no-more>join'),
    });
    const taken = await pollUntil(t.app, (await start(t.app, await submit(t.app, definition(0)))).statusUrl, isFinal);
    expect(taken.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      'now:Succeeded', 'late:Succeeded', 'yes:Succeeded', 'no:Skipped', 'no-more:Skipped', 'join:Succeeded',
    ]);
    expect(taken.steps[1].output).toBe(true);
    const other = await pollUntil(t.app, (await start(t.app, await submit(t.app, definition(Number.MAX_SAFE_INTEGER)))).statusUrl, isFinal);
    expect(other.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Skipped', 'Succeeded', 'Succeeded', 'Succeeded']);
  });

  it('ConditionalBranch: a condition that does not yield a boolean at run time fails the step', async () => {
    const workflowId = await submit(t.app, {
      name: 'branch-dyn',
      steps: [branchStep('check', 'input.flag', 'yes', 'no'), toolStep('yes'), toolStep('no')],
      edges: edges('check>yes', 'check>no'),
      configuration: { input: { flag: 'yes please' } },
    });
    const run = await pollUntil(t.app, (await start(t.app, workflowId)).statusUrl, isFinal);
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'The condition did not yield a boolean.' });
    const fixed = await pollUntil(t.app, (await start(t.app, workflowId, { input: { flag: false } })).statusUrl, isFinal);
    expect(fixed.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Skipped', 'Succeeded']);
  });

  it('SubPlanInvocation: the child runs inside the step, its steps listed under the step’s name; output is its outputs by name', async () => {
    const child = await submit(t.app, { ...chain('child', toolStep('zone', 'json', 'query', { data: '{{ input }}', expression: 'zone' })), configuration: { input: { zone: 'UTC' } } });
    const parentId = await submit(t.app, chain('parent', toolStep('first'), subPlanStep('sub', child), llmStep('after', 'zone={{ steps.sub.output.zone.result }}')));
    const parent = (await t.app.inject({ method: 'GET', url: `/api/workflows/${parentId}` })).json();
    const run = await pollUntil(t.app, (await start(t.app, parentId, { input: { zone: 'Europe/Rome' } })).statusUrl, isFinal);
    expect(run.status).toBe('Succeeded');
    expect(run.steps.map((s: { name: string }) => s.name)).toEqual(['first', 'sub', 'sub/zone', 'after']);
    expect(run.steps[2].id).toBe(`${parent.steps[1].id}/${(await t.app.inject({ method: 'GET', url: `/api/workflows/${child}` })).json().steps[0].id}`);
    expect(run.steps[1].output).toEqual({ zone: { result: 'Europe/Rome' } });
    expect(run.steps[3].output).toBe('You said: zone=Europe/Rome');
  });

  it('SubPlanInvocation: a failing child step fails the parent step; a child deleted before the run fails it too', async () => {
    const child = await submit(t.app, chain('bad-child', toolStep('q', 'json', 'query', { data: {}, expression: '[[[' })));
    const parentId = await submit(t.app, chain('bad-parent', subPlanStep('sub', child)));
    const run = await pollUntil(t.app, (await start(t.app, parentId)).statusUrl, isFinal);
    expect(run).toMatchObject({ status: 'Failed', steps: [{ name: 'sub', status: 'Failed' }, { name: 'sub/q', status: 'Failed' }] });
    expect(run.steps[0].error).toMatch(/^The sub-plan step 'q' failed: The tool reported a failure/);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/workflows/${child}` })).statusCode).toBe(204);
    const orphan = await pollUntil(t.app, (await start(t.app, parentId)).statusUrl, isFinal);
    expect(orphan.steps).toEqual([expect.objectContaining({ name: 'sub', status: 'Failed', error: 'The invoked workflow no longer exists.' })]);
  });

  it('RetrievalPlan: templated queries against the index, fused by reciprocal rank, topK kept', async () => {
    const workflowId = await submit(t.app, {
      ...chain('retrieve', retrievalStep('find', ['{{ input.q1 }}', 'rate limits window'], 2)),
      configuration: { input: { q1: 'autonomy ceiling envelope' } },
    });
    const run = await pollUntil(t.app, (await start(t.app, workflowId)).statusUrl, isFinal);
    expect(run.status).toBe('Succeeded');
    const hits = run.steps[0].output as Array<{ id: string; title: string; text: string; score: number }>;
    expect(hits).toHaveLength(2);
    expect(hits.map((h) => h.title).sort()).toEqual(['Capability envelopes', 'Rate limits']);
    expect(hits[0]!.text).toContain('#');
    expect(hits[0]!.score).toBeCloseTo(1 / 61);
  });
});

describe('run projection and records', () => {
  it('polls exactly the documented fields and never the envelope, owner, tenant or input', async () => {
    const workflowId = await submit(t.app, { ...chain('projection', toolStep('a')), configuration: { input: { secretish: 'do-not-echo' } } });
    const run = await pollUntil(t.app, (await start(t.app, workflowId)).statusUrl, isFinal);
    expect(Object.keys(run).sort()).toEqual(['completedAt', 'createdAt', 'error', 'jobId', 'pendingApprovals', 'startedAt', 'status', 'steps', 'workflowId']);
    expect(Object.keys(run.steps[0]).sort()).toEqual(['completedAt', 'error', 'id', 'name', 'output', 'startedAt', 'status', 'type']);
    const text = JSON.stringify(run);
    for (const leak of ['do-not-echo', 'Autonomous', 'anonymous', 'envelope', 'tenant']) expect(text).not.toContain(leak);
  });

  it('merges the start body’s input over the defaults and refuses any other body field', async () => {
    const workflowId = await submit(t.app, { ...chain('inputs', toolStep('q', 'json', 'query', { data: '{{ input }}', expression: '[a, b]' })), configuration: { input: { a: 1, b: 2 } } });
    const run = await pollUntil(t.app, (await start(t.app, workflowId, { input: { b: 3 } })).statusUrl, isFinal);
    expect(run.steps[0].output).toEqual({ result: [1, 3] });
    for (const body of [{ owner: 'someone-else' }, { input: 'text' }, { input: {}, stream: true }]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs`, payload: body });
      expect(res.statusCode).toBe(400);
    }
  });

  it('redacts secrets in step outputs', async () => {
    const workflowId = await submit(t.app, chain('redact', toolStep('leak', 'json', 'query', { data: { token: GITHUB_TOKEN }, expression: 'token' })));
    const run = await pollUntil(t.app, (await start(t.app, workflowId)).statusUrl, isFinal);
    expect(run.steps[0].output).toEqual({ result: '[REDACTED]' });
    expect(JSON.stringify(run)).not.toContain(GITHUB_TOKEN);
  });

  it('answers 404 for an unknown run, and for a run under another workflow’s id', async () => {
    const a = await submit(t.app, chain('lookup-a', toolStep('x')));
    const b = await submit(t.app, chain('lookup-b', toolStep('x')));
    const { jobId } = await start(t.app, a);
    expect((await t.app.inject({ method: 'GET', url: `/api/workflows/${b}/runs/${jobId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/workflows/${a}/runs/nope` })).statusCode).toBe(404);
    await pollUntil(t.app, `/api/workflows/${a}/runs/${jobId}`, isFinal);
  });

  it('keeps a finished run pollable for RunRecordTtl, then forgets it', async () => {
    const { statusUrl } = await start(t.app, await submit(t.app, chain('ttl', toolStep('a'))));
    await pollUntil(t.app, statusUrl, isFinal);
    clock.advance(30 * 60_000 - 1);
    expect((await poll(t.app, statusUrl)).status).toBe('Succeeded');
    clock.advance(1);
    const gone = await t.app.inject({ method: 'GET', url: statusUrl });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe('Workflow run not found. It may never have existed, expired, or belongs to a different caller.');
  });
});

describe('governance and ownership of runs', () => {
  let idp: DevIdp;
  let owned: TestApp;
  beforeAll(async () => {
    idp = await startTestIdp();
    owned = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: null },
      settings: idpSettings(idp, {
        BundleExecution: {
          Envelopes: {
            BySubject: {
              alice: { AllowedTools: ['clock', 'knowledge'], AutonomyCeiling: 'Autonomous' },
              sam: { AllowedTools: ['clock', 'knowledge'], AutonomyCeiling: 'Supervised' },
              carol: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' },
            },
          },
        },
        Retrieval: { Indexes: { handbook: { Root: HANDBOOK } } },
      }),
    });
  });
  afterAll(async () => {
    await owned.close();
    await idp.close();
  });

  it('runs under the envelope of the caller who starts the run: Supervised refuses every tool call', async () => {
    const sam = bearer(await idp.mintToken({ sub: 'sam' }));
    const id = await submit(owned.app, chain('gov', toolStep('now')), sam);
    const run = await pollUntil(owned.app, (await start(owned.app, id, undefined, sam)).statusUrl, isFinal, sam);
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'Tool call denied by policy.' });
    const plan = await submit(owned.app, chain('gov-plan', retrievalStep('find', ['envelopes'])), sam);
    const planned = await pollUntil(owned.app, (await start(owned.app, plan, undefined, sam)).statusUrl, isFinal, sam);
    expect(planned.steps[0]).toMatchObject({ status: 'Failed', error: 'Tool call denied by policy.' });
  });

  it('refuses at start, in validate’s diagnostics, what the starter is not granted and an LlmCall on a host with no model: sub-plans, both branches and a plan’s knowledge included', async () => {
    const carol = bearer(await idp.mintToken({ sub: 'carol' }));
    const child = await submit(owned.app, chain('child', toolStep('peek', 'json', 'query', { data: {}, expression: 'a' })), carol);
    const parent = await submit(
      owned.app,
      {
        name: 'parent',
        steps: [toolStep('now'), branchStep('check', 'true', 'sub', 'find'), subPlanStep('sub', child), retrievalStep('find', ['envelopes']), llmStep('ask', 'hi')],
        edges: edges('now>check', 'check>sub', 'check>find', 'sub>ask'),
      },
      carol,
    );
    const res = await owned.app.inject({ method: 'POST', url: `/api/workflows/${parent}/runs`, headers: carol });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const problem = res.json();
    expect(problem).toMatchObject({ title: 'Validation failed', status: 400, detail: expect.stringMatching(/^The run cannot start: Step 'sub\/peek': .* \(3 problems, listed in 'diagnostics'\)$/) });
    expect(problem.diagnostics).toEqual([
      { code: 'tool-not-granted', step: 'sub/peek', message: "Step 'sub/peek': the tool 'json' is not one the starting caller's envelope grants; see GET /api/tools." },
      { code: 'tool-not-granted', step: 'find', message: "Step 'find': the tool 'knowledge' is not one the starting caller's envelope grants; see GET /api/tools." },
      { code: 'no-chat-model', step: 'ask', message: "Step 'ask' calls the chat model, and no chat model is configured on this host (AppConfig:AI:ChatModel:Provider)." },
    ]);
    // Nothing was admitted: the caller holds no run and the workflow none.
    expect((await owned.app.inject({ method: 'GET', url: '/api/workflows/runs', headers: carol })).json().runs).toEqual([]);
    // The definition itself is valid: validate (the definition's checks) has nothing to say.
    const stored = (await owned.app.inject({ method: 'GET', url: `/api/workflows/${parent}`, headers: carol })).json();
    const definition = { name: stored.name, steps: stored.steps.map(({ name, type, configuration }: Record<string, unknown>) => ({ name, type, configuration })), edges: stored.edges };
    expect((await owned.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: carol, payload: definition })).json()).toEqual({ valid: true, diagnostics: [] });
  });

  it('lets only the run’s owner poll, cancel and answer approvals; others get the same 404 as unknown ids', async () => {
    const alice = bearer(await idp.mintToken({ sub: 'alice' }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }));
    const id = await submit(owned.app, chain('owned', gateStep('gate')), alice);
    const { statusUrl } = await start(owned.app, id, undefined, alice);
    const blocked = await pollUntil(owned.app, statusUrl, statusIs('Blocked'), alice);
    const approval = `${statusUrl}/approvals/${blocked.pendingApprovals[0].approvalId}`;
    for (const [method, url, payload] of [['GET', statusUrl, undefined], ['DELETE', statusUrl, undefined], ['POST', approval, { decision: 'Approve' }]] as const) {
      const res = await owned.app.inject({ method, url, headers: bob, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(404);
    }
    expect((await owned.app.inject({ method: 'POST', url: approval, headers: alice, payload: { decision: 'Approve' } })).statusCode).toBe(200);
    expect((await pollUntil(owned.app, statusUrl, isFinal, alice)).status).toBe('Succeeded');
  });
});
