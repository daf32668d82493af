// DESIGN §14 schedule routes with real tokens from the loopback identity provider, on both providers:
// the resource exactly as §14 names it, lists with limit/cursor, PATCH and DELETE, RFC 7807 refusals
// that say what to change, foreign ≡ unknown byte for byte, at most 50 per owner, and a fire running
// under the identity claims stored at create or PATCH (not the ones the owner has at fire time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { ManualTicks } from '../../src/schedules/index.js';
import { withoutIdEcho, withoutTraceId } from '../helpers/problem-body.js';
import { buildEvalApp, EVALS, startEvalHarness, tokenFor, writeDatasets, type EvalHarness } from './evals-harness.js';
import type { TestApp } from '../helpers/test-app.js';
import { firesOf } from './schedules-harness.js';

type Headers = Record<string, string>;
const FAST = Object.fromEntries(['schedules-write', 'schedules-read', 'evals-write', 'evals-read'].map((policy) => [policy, { PermitsPerMinute: 100_000 }]));
const EVAL_TARGET = { eval: { datasets: ['smoke'], repeats: 1 } };

let harness: EvalHarness;
let t: TestApp;
let alice: Headers;
let bob: Headers;
let carol: Headers;
let danaWithoutRole: Headers;
let danaWithRole: Headers;
const clock = new ManualClock(Date.parse('2026-06-01T08:02:00Z'));
const ticks = new ManualTicks();

beforeAll(async () => {
  harness = await startEvalHarness();
  await writeDatasets(harness.root, { 'smoke.json': { cases: [{ id: 'one', input: 'hello' }] } });
  // Tokens are checked against the injected clock: it starts at the real time and moves minutes at most.
  clock.set(Date.now());
  t = await buildEvalApp(harness, { RateLimits: FAST }, { clock, scheduleTicks: ticks });
  alice = await tokenFor(harness, 'alice', []);
  bob = await tokenFor(harness, 'bob', []);
  carol = await tokenFor(harness, 'carol', []);
  danaWithoutRole = await tokenFor(harness, 'dana', []);
  danaWithRole = await tokenFor(harness, 'dana', [EVALS]);
  // Every token is issued by now (a token issued after the clock's "now" would not be valid yet).
  clock.set(Date.now() + 1_000);
});
afterAll(async () => {
  await t.close();
  await harness.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

describe('the schedule resource', () => {
  it('is created (201, Location), read, listed with limit/cursor, changed and deleted (204) as §14 names it', async () => {
    const created = await send('POST', '/api/schedules', alice, { name: 'nightly evals', cron: '30 2 * * *', timeZone: 'Europe/Paris', target: EVAL_TARGET });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(Object.keys(body)).toEqual(['id', 'name', 'cron', 'timeZone', 'target', 'enabled', 'nextRunAt', 'createdAt']);
    expect(body).toMatchObject({ name: 'nightly evals', cron: '30 2 * * *', timeZone: 'Europe/Paris', target: EVAL_TARGET, enabled: true });
    expect(created.headers.location).toBe(`/api/schedules/${body.id}`);
    expect(new Date(body.nextRunAt).getTime()).toBeGreaterThan(clock.now());
    expect((await send('GET', `/api/schedules/${body.id}`, alice)).json()).toEqual(body);

    clock.advance(1_000); // newest first: the second is created a second later
    const workflowId = (await send('POST', '/api/workflows', alice, { name: 'scheduled', steps: [{ name: 'now', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } }], edges: [] })).json().id as string;
    const second = (await send('POST', '/api/schedules', alice, { name: 'hourly', cron: '@hourly', target: { workflow: { workflowId, input: { n: 1 } } }, enabled: false })).json();
    expect(second).toMatchObject({ timeZone: 'UTC', enabled: false, nextRunAt: null });
    const first = (await send('GET', '/api/schedules?limit=1', alice)).json();
    expect(first.schedules.map((s: { id: string }) => s.id)).toEqual([second.id]);
    const rest = (await send('GET', `/api/schedules?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`, alice)).json();
    expect(rest.schedules.map((s: { id: string }) => s.id)).toEqual([body.id]);
    expect((await send('GET', '/api/schedules', bob)).json()).toEqual({ schedules: [], nextCursor: null });

    const enabled = (await send('PATCH', `/api/schedules/${second.id}`, alice, { enabled: true, cron: '15 * * * *' })).json();
    expect(enabled).toMatchObject({ enabled: true, cron: '15 * * * *', name: 'hourly' });
    expect(new Date(enabled.nextRunAt).getUTCMinutes()).toBe(15);
    expect((await send('PATCH', `/api/schedules/${second.id}`, alice, { enabled: false })).json()).toMatchObject({ nextRunAt: null });

    expect((await send('DELETE', `/api/schedules/${second.id}`, alice)).statusCode).toBe(204);
    expect((await send('GET', `/api/schedules/${second.id}`, alice)).statusCode).toBe(404);
    expect(await firesOf(t.app, body.id, alice)).toEqual([]);
    expect((await send('DELETE', `/api/schedules/${body.id}`, alice)).statusCode).toBe(204);
  });

  it('refuses a target that names no workflow of the caller or a dataset that does not exist, at create and at change (400)', async () => {
    const missingWorkflow = await send('POST', '/api/schedules', alice, { name: 'nothing', cron: '@daily', target: { workflow: { workflowId: 'no-such-workflow' } } });
    expect(missingWorkflow.statusCode).toBe(400);
    expect(missingWorkflow.json().detail).toBe('target.workflow.workflowId names no workflow of yours: submit it first (POST /api/workflows), or name another.');
    const missingDataset = await send('POST', '/api/schedules', alice, { name: 'nothing', cron: '@daily', target: { eval: { datasets: ['smoke', 'no-such-dataset'] } } });
    expect(missingDataset.statusCode).toBe(400);
    expect(missingDataset.json().detail).toContain('target.eval.datasets names a dataset that does not exist');
    const created = (await send('POST', '/api/schedules', alice, { name: 'smoke', cron: '@daily', target: EVAL_TARGET })).json();
    const changed = await send('PATCH', `/api/schedules/${created.id}`, alice, { target: { eval: { datasets: ['mine/none-of-mine'] } } });
    expect(changed.statusCode).toBe(400);
    expect((await send('GET', `/api/schedules/${created.id}`, alice)).json().target).toEqual(EVAL_TARGET);
    expect((await send('DELETE', `/api/schedules/${created.id}`, alice)).statusCode).toBe(204);
  });

  it('refuses a bad cron, an unknown zone, a too-short interval and unknown fields with 400 problems that say what to change', async () => {
    const refusals: Array<[object, string | RegExp]> = [
      [{ cron: '* * * *' }, 'cron must have five fields (minute hour day-of-month month day-of-week); it has 4.'],
      [{ cron: '*/10 * * * * *' }, /^cron has six fields \(seconds first\), accepted only when AppConfig:Schedules:MinIntervalSeconds is under 60/],
      [{ cron: '@reboot' }, 'cron \'@reboot\' is not accepted; the nicknames are @hourly, @daily, @weekly, @monthly.'],
      [{ cron: '0 25 * * *' }, /^cron is not a valid cron expression: .*hour/],
      [{ timeZone: 'Mars/Olympus' }, "timeZone 'Mars/Olympus' is not an IANA time zone name (such as UTC or Europe/Paris)."],
      [{ owner: 'sub:bob' }, "body has an unknown property 'owner'."],
      [{ target: { workflow: { workflowId: 'w' }, eval: { datasets: ['x'] } } }, /^body\/target/],
    ];
    for (const [change, detail] of refusals) {
      const res = await send('POST', '/api/schedules', alice, { name: 'bad', cron: '0 * * * *', target: EVAL_TARGET, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ type: 'urn:portcullis:problem:validation-failed', title: 'Validation failed', status: 400, detail });
    }
    const id = (await send('POST', '/api/schedules', alice, { name: 'ok', cron: '0 * * * *', target: EVAL_TARGET })).json().id as string;
    expect((await send('PATCH', `/api/schedules/${id}`, alice, {})).statusCode).toBe(400);
    expect((await send('PATCH', `/api/schedules/${id}`, alice, { cron: '0 0 31 2 *' })).json()).toMatchObject({ status: 400, detail: 'cron never fires: no date matches it.' });
    expect((await send('DELETE', `/api/schedules/${id}`, alice)).statusCode).toBe(204);
  });

  it('answers another owner’s schedule exactly as an unknown one (404) on every route', async () => {
    const id = (await send('POST', '/api/schedules', alice, { name: 'mine', cron: '0 * * * *', target: EVAL_TARGET })).json().id as string;
    const unknown = 'A'.repeat(id.length);
    for (const [method, suffix, payload] of [['GET', '', undefined], ['PATCH', '', { name: 'x' }], ['DELETE', '', undefined], ['GET', '/fires', undefined]] as const) {
      const foreign = await send(method, `/api/schedules/${id}${suffix}`, bob, payload);
      const missing = await send(method, `/api/schedules/${unknown}${suffix}`, bob, payload);
      expect(foreign.statusCode).toBe(404);
      expect(withoutIdEcho(foreign.body)).toBe(withoutIdEcho(missing.body));
    }
    const again = await send('GET', `/api/schedules/${id}`, bob);
    expect(withoutTraceId(again.body)).toBe(withoutTraceId((await send('GET', `/api/schedules/${id}`, bob)).body));
    expect((await send('GET', `/api/schedules/${id}`, alice)).json()).toMatchObject({ name: 'mine' });
    expect((await send('DELETE', `/api/schedules/${id}`, alice)).statusCode).toBe(204);
  });

  it('keeps at most 50 schedules per owner (409 beyond), counted apart for each owner', async () => {
    for (let i = 0; i < 50; i += 1) expect((await send('POST', '/api/schedules', carol, { name: `s${i}`, cron: '0 3 * * *', target: EVAL_TARGET, enabled: false })).statusCode).toBe(201);
    const over = await send('POST', '/api/schedules', carol, { name: 'one too many', cron: '0 3 * * *', target: EVAL_TARGET });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toBe('This caller already has the maximum of 50 schedules; delete one first.');
    expect((await send('POST', '/api/schedules', bob, { name: 'bob’s first', cron: '0 3 * * *', target: EVAL_TARGET, enabled: false })).statusCode).toBe(201);
  });
});

describe('the claims a fire runs under', () => {
  it('are those stored at create or the last PATCH, not the ones the owner holds when it fires', async () => {
    // Dana creates the schedule without the eval role: its fire fails on the role, whatever her later tokens hold.
    const [withoutRole, withRole] = [danaWithoutRole, danaWithRole];
    const minute = 60_000;
    clock.set(Math.ceil(clock.now() / (5 * minute)) * 5 * minute + 10_000);
    const id = (await send('POST', '/api/schedules', withoutRole, { name: 'every five minutes', cron: '*/5 * * * *', target: EVAL_TARGET })).json().id as string;
    expect((await send('GET', `/api/schedules/${id}`, withRole)).statusCode).toBe(200);
    clock.advance(5 * minute);
    await ticks.step();
    const [refused] = await firesOf(t.app, id, withRole);
    expect(refused).toMatchObject({ outcome: 'Failed', reason: 'Evaluation runs need the role Harness.Evals.Execute and AppConfig:AI:Evaluation:Enabled set to true.' });

    // A PATCH stores the claims of the token it came with: from then on the fire holds the role.
    expect((await send('PATCH', `/api/schedules/${id}`, withRole, { name: 'every five minutes, with the role' })).statusCode).toBe(200);
    clock.advance(5 * minute);
    await ticks.step();
    const [started] = await firesOf(t.app, id, withRole);
    expect(started).toMatchObject({ outcome: 'Started', jobId: expect.any(String) });
    const run = await send('GET', `/api/evals/runs/${started!.jobId}`, withRole);
    expect(run.statusCode, run.body).toBe(200);
    expect((await send('GET', `/api/evals/runs/${started!.jobId}`, alice)).statusCode).toBe(404);
  });
});
