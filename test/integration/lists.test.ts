// The list routes of DESIGN §12: the caller's own resources only, newest first, `limit` 1..200 (400
// outside), an opaque `cursor` from the previous page's `nextCursor` (null when nothing follows; a
// page may end empty after an exactly full one); a cursor not of the documented form is refused as 400
// by the schema, and any text of that form is a position (a forged one only moves where the page starts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { bundleZip, multipart } from './bundles-harness.js';
import { chain, gateStep, pollUntil, statusIs, submit, toolStep } from './workflows-harness.js';
import { stripTraceId } from '../helpers/problem-body.js';

let idp: DevIdp;
let t: TestApp;
let dir: string;
let alice: Record<string, string>;
let bob: Record<string, string>;

const EVALS = 'Harness.Evals.Execute';

beforeAll(async () => {
  idp = await startTestIdp();
  dir = await mkdtemp(join(tmpdir(), 'portcullis-lists-'));
  await writeFile(join(dir, 'tiny.jsonl'), '{"id":"one","input":"hello","assert":[{"type":"contains","value":"hello"}]}\n');
  const limits = Object.fromEntries(
    ['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete', 'workflows-write', 'workflows-read', 'evals-write', 'evals-read'].map((p) => [
      p,
      { PermitsPerMinute: 100_000 },
    ]),
  );
  t = await buildTestApp({
    environment: 'Production',
    settings: idpSettings(
      idp,
      merge({
        BundleExecution: {
          Enabled: true,
          TempRoot: join(dir, 'staging'),
          Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
        },
        ChatModel: { Provider: 'Scripted' },
        Evaluation: { Enabled: true, DatasetRoots: [dir] },
        RateLimits: limits,
      }),
    ),
  });
  alice = bearer(await idp.mintToken({ sub: 'alice', roles: [EVALS] }));
  bob = bearer(await idp.mintToken({ sub: 'bob', roles: [EVALS] }));
});

afterAll(async () => {
  await t.close();
  await idp.close();
  await rm(dir, { recursive: true, force: true });
});

/** Newest first: createdAt never increases down the list (runs started in one millisecond tie on it). */
function expectNewestFirst(items: Array<{ createdAt: string }>): void {
  const times = items.map((item) => Date.parse(item.createdAt));
  expect(times).toEqual([...times].sort((x, y) => y - x));
}

async function get(url: string, headers = alice) {
  return t.app.inject({ method: 'GET', url, headers });
}

async function register(headers: Record<string, string>): Promise<string> {
  const { payload, headers: h } = multipart(bundleZip());
  const res = await t.app.inject({ method: 'POST', url: '/api/bundles', payload, headers: { ...headers, ...h } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().handle as string;
}

describe('GET /api/bundles', () => {
  it('lists the caller’s own handles newest first, a page at a time, and nobody else’s', async () => {
    const first = await register(alice);
    const second = await register(alice);
    await register(bob);
    const page1 = await get('/api/bundles?limit=1');
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ handles: [{ handle: second, agentId: 'helper' }] });
    const cursor = page1.json().nextCursor as string;
    expect(typeof cursor).toBe('string');
    const page2 = await get(`/api/bundles?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(page2.json().handles.map((h: { handle: string }) => h.handle)).toEqual([first]);
    const all = (await get('/api/bundles')).json();
    expect(all.handles.map((h: { handle: string }) => h.handle)).toEqual([second, first]);
    expect(all.nextCursor).toBeNull();
    expect(Object.keys(all.handles[0]).sort()).toEqual(['agentId', 'createdAt', 'expiresAt', 'handle']);
    expect((await get('/api/bundles', bob)).json().handles).toHaveLength(1);
  });

  it('refuses a limit outside 1..200, a forged cursor and an unknown query parameter with 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=ten', 'cursor=not-ours', 'cursor=', 'owner=bob']) {
      const res = await get(`/api/bundles?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
    }
    expect((await get('/api/bundles?limit=200')).statusCode).toBe(200);
  });

  it('refuses a cursor not of the documented form through the schema, and reads any cursor of that form as a position', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const cursor = (doc.paths['/api/bundles'].get.parameters as Array<{ name: string; schema: { pattern: string } }>).find((p) => p.name === 'cursor')!;
    const form = new RegExp(cursor.schema.pattern, 'u');
    for (const forged of ['0', 'not-ours', '1.a b', '%00']) {
      expect(form.test(decodeURIComponent(forged)), forged).toBe(false);
      const res = await get(`/api/bundles?cursor=${forged}`);
      expect(res.statusCode, forged).toBe(400);
      expect(res.json().detail, forged).toContain('cursor');
    }
    const nul = Buffer.from('z\u0000z').toString('base64url');
    for (const forged of ['0.', `9999999999999.${nul}`, '1.AA', `${Date.now()}.x`]) {
      expect(form.test(forged), forged).toBe(true);
      const res = await get(`/api/bundles?cursor=${forged}`);
      expect(res.statusCode, forged).toBe(200);
    }
    expect((await get('/api/bundles?cursor=0.')).json()).toEqual({ handles: [], nextCursor: null });
  });
});

describe('GET /api/bundles/{handle}/runs', () => {
  it('lists the caller’s runs under their handle as poll bodies; another caller’s handle is the same 404 as an unknown one', async () => {
    const handle = await register(alice);
    const started: string[] = [];
    for (const text of ['one', 'two']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers: alice, payload: { userMessages: [text] } });
      started.push(res.json().jobId as string);
    }
    const listed = await get(`/api/bundles/${handle}/runs`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().runs.map((r: { jobId: string }) => r.jobId).sort()).toEqual([...started].sort());
    expectNewestFirst(listed.json().runs);
    expect(listed.json().runs[0]).toHaveProperty('status');
    const foreign = await get(`/api/bundles/${handle}/runs`, bob);
    const unknown = await get('/api/bundles/no-such-handle/runs', bob);
    expect(foreign.statusCode).toBe(404);
    expect(stripTraceId(foreign.json())).toEqual({ ...stripTraceId(unknown.json()), instance: foreign.json().instance });
  });
});

describe('GET /api/workflows/runs and GET /api/approvals', () => {
  it('lists the caller’s runs across workflows, filtered by status and workflow, and their pending approvals', async () => {
    const gated = await submit(t.app, chain('list-gated', gateStep('gate', 'Ship it?', '01:00:00'), toolStep('after')), alice);
    const plain = await submit(t.app, chain('list-plain', toolStep('a')), alice);
    const blockedRun = (await t.app.inject({ method: 'POST', url: `/api/workflows/${gated}/runs`, headers: alice })).json();
    const plainRun = (await t.app.inject({ method: 'POST', url: `/api/workflows/${plain}/runs`, headers: alice })).json();
    await pollUntil(t.app, blockedRun.statusUrl, statusIs('Blocked'), alice);
    await pollUntil(t.app, plainRun.statusUrl, statusIs('Succeeded'), alice);

    const all = (await get('/api/workflows/runs')).json();
    expect(all.runs.map((r: { jobId: string }) => r.jobId).sort()).toEqual([plainRun.jobId, blockedRun.jobId].sort());
    expectNewestFirst(all.runs);
    expect((await get('/api/workflows/runs?status=Blocked')).json().runs.map((r: { jobId: string }) => r.jobId)).toEqual([blockedRun.jobId]);
    expect((await get(`/api/workflows/runs?workflowId=${plain}`)).json().runs.map((r: { jobId: string }) => r.jobId)).toEqual([plainRun.jobId]);
    expect((await get('/api/workflows/runs?status=Sleeping')).statusCode).toBe(400);
    expect((await get('/api/workflows/runs', bob)).json()).toEqual({ runs: [], nextCursor: null });

    const approvals = (await get('/api/approvals')).json();
    expect(approvals.approvals).toHaveLength(1);
    const [approval] = approvals.approvals;
    expect(approval).toMatchObject({ workflowId: gated, jobId: blockedRun.jobId, stepName: 'gate', message: 'Ship it?' });
    const timeout = Date.parse(approval.expiresAt) - Date.parse(approval.createdAt);
    expect(timeout).toBeGreaterThan(3_590_000);
    expect(timeout).toBeLessThanOrEqual(3_600_000);
    expect((await get('/api/approvals', bob)).json().approvals).toEqual([]);

    const decided = await t.app.inject({
      method: 'POST',
      url: `${blockedRun.statusUrl}/approvals/${approval.approvalId}`,
      headers: alice,
      payload: { decision: 'Approve' },
    });
    expect(decided.statusCode).toBe(200);
    await pollUntil(t.app, blockedRun.statusUrl, statusIs('Succeeded'), alice);
    expect((await get('/api/approvals')).json().approvals).toEqual([]);
  });
});

describe('GET /api/evals/runs', () => {
  it('lists the caller’s eval runs newest first as their poll bodies', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/evals/runs', headers: alice, payload: { datasets: ['tiny'] } });
      expect(res.statusCode, res.body).toBe(202);
      ids.push(res.json().jobId as string);
      for (let n = 0; n < 200; n += 1) {
        const status = (await get(`/api/evals/runs/${ids.at(-1)}`)).json().status as string;
        if (status === 'Succeeded') break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const listed = (await get('/api/evals/runs')).json();
    expect(listed.runs.map((r: { jobId: string }) => r.jobId)).toEqual([...ids].reverse());
    expect(listed.runs[0]).toMatchObject({ status: 'Succeeded', datasets: ['tiny'], counts: { total: 1 } });
    expect((await get('/api/evals/runs', bob)).json().runs).toEqual([]);
  });
});
