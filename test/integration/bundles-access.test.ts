// Who may do what on the bundle routes, with real tokens from a loopback identity provider: the master
// toggle (403 on all five routes, before anything else), 401 on all five, foreign resources answered
// byte-for-byte like unknown ones, and the envelope taken from the credential that STARTS a run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import {
  bundleSettings,
  bundleZip,
  deleteHandle,
  listen,
  poll,
  readVerifiedStream,
  register,
  registerHandle,
  settled,
  startJob,
  startRun,
} from './bundles-harness.js';
import { stripTraceId, withoutPerRequestHeaders } from '../helpers/problem-body.js';

let idp: DevIdp;
let root: string;
let t: TestApp;
let url: string;

const envelopes = {
  BySubject: {
    'alice-admin': { AllowedTools: ['calculator', 'clock'], AutonomyCeiling: 'Autonomous' },
    'alice-reader': { AllowedTools: [], AutonomyCeiling: 'Restricted' },
    bob: { AllowedTools: ['calculator'], AutonomyCeiling: 'Autonomous' },
  },
};

function settings(enabled: boolean): Record<string, unknown> {
  const base = bundleSettings(root, { BundleExecution: { Enabled: enabled, Envelopes: envelopes } });
  const withIdp = idpSettings(idp, (base.AppConfig as { AI: Record<string, unknown> }).AI);
  // idpSettings replaces Auth; anonymous mode must not stay on beside a scheme.
  return merge(withIdp, { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } });
}

async function as(sub: string, oid?: string): Promise<Record<string, string>> {
  return bearer(await idp.mintToken(oid === undefined ? { sub } : { sub, oid }, { ttlSeconds: 3600 }));
}

beforeAll(async () => {
  idp = await startTestIdp();
  root = await mkdtemp(join(tmpdir(), 'portcullis-bundles-access-'));
  t = await buildTestApp({ environment: 'Production', settings: settings(true) });
  url = await listen(t.app);
});
afterAll(async () => {
  await t.close();
  await idp.close();
  await rm(root, { recursive: true, force: true });
});

/** The five routes, each as the caller would send it. */
function fiveRoutes(handle: string, jobId: string) {
  return [
    { method: 'POST' as const, url: '/api/bundles', multipart: true },
    { method: 'DELETE' as const, url: `/api/bundles/${handle}` },
    { method: 'POST' as const, url: `/api/bundles/${handle}/runs`, json: { userMessages: ['hi'] } },
    { method: 'GET' as const, url: `/api/bundles/${handle}/runs/${jobId}` },
    { method: 'GET' as const, url: `/api/bundles/${handle}/runs/${jobId}/stream` },
  ];
}

async function send(app: TestApp['app'], route: ReturnType<typeof fiveRoutes>[number], headers: Record<string, string>) {
  if (route.multipart) return register(app, headers);
  if (route.json) {
    return app.inject({ method: route.method, url: route.url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(route.json) });
  }
  return app.inject({ method: route.method, url: route.url, headers });
}

describe('master toggle', () => {
  it('403 on every bundle route while BundleExecution:Enabled is false, saying how to enable it', async () => {
    const off = await buildTestApp({ environment: 'Production', settings: settings(false) });
    try {
      const headers = await as('alice-admin');
      for (const route of fiveRoutes('some-handle', 'some-job')) {
        const res = await send(off.app, route, headers);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json()).toMatchObject({ title: 'Forbidden', detail: expect.stringContaining('AppConfig:AI:BundleExecution:Enabled') });
      }
      // Off means nothing counted either: far past the register rate, still 403.
      for (let i = 0; i < 12; i += 1) expect((await register(off.app, headers)).statusCode).toBe(403);
      // Authentication still comes first.
      expect((await register(off.app)).statusCode).toBe(401);
    } finally {
      await off.close();
    }
  });
});

describe('authentication', () => {
  it('401 on every bundle route without a valid token, with the uniform body', async () => {
    const bodies = new Set<string>();
    for (const route of fiveRoutes('h', 'j')) {
      for (const headers of [{}, bearer('garbage'), bearer(`${await idp.mintToken({ sub: 'x' }, { ttlSeconds: 3600 })}tampered`)]) {
        const res = await send(t.app, route, headers);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        bodies.add(JSON.stringify({ ...stripTraceId(res.json()), instance: '' }));
      }
    }
    expect(bodies.size).toBe(1);
  });
});

describe('ownership: foreign is indistinguishable from unknown', () => {
  it('answers another caller’s handle, run and stream with the same 404 as unknown ones, except the echoed path', async () => {
    const alice = await as('alice-admin', 'oid-alice');
    const bob = await as('bob');
    const handle = await registerHandle(t.app, alice);
    const jobId = await startJob(t.app, handle, { userMessages: ['hello'], stream: true }, alice);

    const pairs = [
      [await startRun(t.app, handle, { userMessages: ['hi'] }, bob), await startRun(t.app, 'no-such-handle', { userMessages: ['hi'] }, bob)],
      [await poll(t.app, handle, jobId, bob), await poll(t.app, 'no-such-handle', 'no-such-job', bob)],
      [await poll(t.app, handle, jobId, bob), await poll(t.app, handle, 'no-such-job', alice)],
      [
        await t.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs/${jobId}/stream`, headers: bob }),
        await t.app.inject({ method: 'GET', url: `/api/bundles/nope/runs/nope/stream`, headers: bob }),
      ],
    ];
    for (const [foreign, unknown] of pairs) {
      expect(foreign!.statusCode).toBe(404);
      expect(unknown!.statusCode).toBe(404);
      expect(foreign!.headers['content-type']).toBe(unknown!.headers['content-type']);
      expect({ ...stripTraceId(foreign!.json()), instance: '' }).toEqual({ ...stripTraceId(unknown!.json()), instance: '' });
      expect(Object.keys(foreign!.json()).sort()).toEqual(['detail', 'instance', 'status', 'title', 'traceId', 'type']);
      // content-length follows the echoed path in `instance`, the one member allowed to differ.
      const { 'content-length': _a, ...foreignHeaders } = withoutPerRequestHeaders(foreign!.headers);
      const { 'content-length': _b, ...unknownHeaders } = withoutPerRequestHeaders(unknown!.headers);
      expect(foreignHeaders).toEqual(unknownHeaders);
    }
    expect(pairs[0]![0]!.json().detail).toBe('Bundle handle not found or expired. Register the bundle again to obtain a fresh handle.');
    expect(pairs[1]![0]!.json().detail).toBe('Bundle run not found. It may never have existed, expired, or belongs to a different caller.');

    // A run is readable only under the handle it was started on.
    const other = await registerHandle(t.app, alice);
    expect((await poll(t.app, other, jobId, alice)).statusCode).toBe(404);

    // DELETE says nothing either way, and a foreign DELETE leaves the handle alone.
    const foreignDelete = await deleteHandle(t.app, handle, bob);
    const unknownDelete = await deleteHandle(t.app, 'no-such-handle', bob);
    for (const res of [foreignDelete, unknownDelete]) {
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
    }
    expect(withoutPerRequestHeaders(foreignDelete.headers)).toEqual(withoutPerRequestHeaders(unknownDelete.headers));
    expect((await startRun(t.app, handle, { userMessages: ['still mine'] }, alice)).statusCode).toBe(202);
  });

  it('keys ownership on oid first: a token whose sub equals someone’s oid never reaches their handle', async () => {
    const owner = await as('someone', 'shared-value');
    const impostor = await as('shared-value');
    const handle = await registerHandle(t.app, owner);
    expect((await startRun(t.app, handle, { userMessages: ['hi'] }, impostor)).statusCode).toBe(404);
  });
});

describe('the envelope of the STARTING caller', () => {
  const calc = 'call calculator evaluate {"expression":"6*7"}';

  it('is applied to the run, not the envelope of the caller who registered the bundle', async () => {
    // Same owner (oid), different subjects: one envelope grants the calculator, the other nothing.
    const admin = await as('alice-admin', 'oid-alice');
    const reader = await as('alice-reader', 'oid-alice');

    const registeredByReader = await registerHandle(t.app, reader);
    const allowed = await startRun(t.app, registeredByReader, { userMessages: [calc], stream: true }, admin);
    const allowedFrames = await readVerifiedStream(`${url}${allowed.json().streamUrl}`, reader);
    expect(allowedFrames.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: expect.stringContaining('"result":42') });

    const registeredByAdmin = await registerHandle(t.app, admin);
    const denied = await startRun(t.app, registeredByAdmin, { userMessages: [calc], stream: true }, reader);
    // Opened by the admin, but the run keeps the reader's envelope captured at start-run.
    const deniedFrames = await readVerifiedStream(`${url}${denied.json().streamUrl}`, admin);
    expect(deniedFrames.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'Tool call denied by policy.' });
    expect(deniedFrames.at(-1)!.type).toBe('RUN_FINISHED');
  });

  it('is narrowed by the bundle’s allowed-tools, which can only narrow', async () => {
    const admin = await as('alice-admin', 'oid-alice');
    const zip = bundleZip({
      'AGENT.md': '---\nid: narrow\nallowed-tools: [clock, http_fetch]\n---\nOnly the clock.\n',
    });
    const handle = await registerHandle(t.app, admin, zip);
    const jobId = await startJob(t.app, handle, { userMessages: [calc, 'call http_fetch get {"url":"http://127.0.0.1/"}', 'call clock now'] }, admin);
    const run = await settled(t.app, handle, jobId, admin);
    expect(run).toMatchObject({ status: 'Succeeded', result: { totalToolInvocations: 3, turnCount: 3 } });
    // The last turn's summary shows the clock ran; the others were denied (calculator: not requested,
    // http_fetch: requested but not granted).
    expect((run.result as { finalResponse: string }).finalResponse).toContain('clock: {');
  });
});
