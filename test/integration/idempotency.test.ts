// DESIGN §14 Idempotency-Key on both providers: a repeat with the same body gets the first answer again
// (status, Location, body) with `Idempotent-Replayed: true` and nothing runs twice; the same key with
// another body is 422; a key of the wrong form is 400; a kept 4xx is replayed too; keys are scoped to
// the owner and the route with its ids; an upload's fingerprint is its file's; and two identical
// requests racing on two instances start exactly one run. Hostile: a 10,000-key flood keeps what the
// rate policy admits and nothing more, and the sweep empties it after the TTL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { IDEMPOTENCY_COLLECTION, IdempotencyStore } from '../../src/platform/idempotency/index.js';
import { ANONYMOUS_DEV, buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { bundleSettings, bundleZip, multipart, registerHandle } from './bundles-harness.js';
import { chain, submit, toolStep } from './workflows-harness.js';

const settings = (tempRoot: string) =>
  merge(bundleSettings(tempRoot), {
    AppConfig: { AI: { BundleExecution: { Auth: { AnonymousRoles: ['Harness.Tools.Invoke'] } }, DirectToolInvocation: { Enabled: true }, RateLimits: { 'workflows-write': { PermitsPerMinute: 100_000 }, 'workflows-read': { PermitsPerMinute: 100_000 } } } },
  });

describe('Idempotency-Key', () => {
  let temp: string;
  let shared: TestStorage;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'portcullis-idempotency-'));
    shared = await openSharedTestStorage();
    a = await buildTestApp({ settings: settings(join(temp, 'a')), deps: { storage: shared.storage, instanceId: 'a' } });
    b = await buildTestApp({ settings: settings(join(temp, 'b')), deps: { storage: shared.storage, instanceId: 'b' } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await shared.dispose();
    await rm(temp, { recursive: true, force: true });
  });

  const startRun = (app: TestApp, handle: string, key: string | undefined, body: unknown) =>
    app.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers: key === undefined ? {} : { 'idempotency-key': key }, payload: body as object });
  const runsUnder = async (handle: string): Promise<number> => (await a.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs` })).json<{ runs: unknown[] }>().runs.length;

  it('answers a repeat with the first answer, marked replayed, and starts one run', async () => {
    const handle = await registerHandle(a.app);
    const body = { userMessages: ['hello'] };
    const first = await startRun(a, handle, 'start-1', body);
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await startRun(b, handle, 'start-1', body);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers['location']).toBe(first.headers['location']);
    expect(await runsUnder(handle)).toBe(1);
  });

  it('refuses the same key with another body (422) and a key of the wrong form (400), running nothing', async () => {
    const handle = await registerHandle(a.app);
    expect((await startRun(a, handle, 'start-2', { userMessages: ['one'] })).statusCode).toBe(202);
    const reused = await startRun(a, handle, 'start-2', { userMessages: ['two'] });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ title: 'Idempotency key reused', status: 422 });
    for (const key of ['x'.repeat(256), 'has space', 'ümlaut', '']) {
      const bad = await startRun(a, handle, key, { userMessages: ['three'] });
      expect(bad.statusCode, key).toBe(400);
    }
    expect(await runsUnder(handle)).toBe(1);
  });

  it('keeps a 4xx answer and replays it, and scopes keys to the route with its ids and to the owner', async () => {
    const missing = await startRun(a, 'no-such-handle', 'start-3', { userMessages: ['x'] });
    expect(missing.statusCode).toBe(404);
    const replayed = await startRun(a, 'no-such-handle', 'start-3', { userMessages: ['x'] });
    expect(replayed.statusCode).toBe(404);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // The same key on another route (another handle) is another key.
    const handle = await registerHandle(a.app);
    const fresh = await startRun(a, handle, 'start-3', { userMessages: ['x'] });
    expect(fresh.statusCode).toBe(202);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('ignores the header on a route that does not take one: each call runs, none is replayed, no key form is refused', async () => {
    const invoke = (key: string) =>
      a.app.inject({ method: 'POST', url: '/api/tools/calculator/invoke', headers: { 'idempotency-key': key }, payload: { operation: 'evaluate', parameters: { expression: '6*7' } } });
    const first = await invoke('invoke-1');
    const again = await invoke('invoke-1');
    const odd = await invoke('has space');
    for (const res of [first, again, odd]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(first.json()).toMatchObject({ tool: 'calculator', operation: 'evaluate', succeeded: true, output: JSON.stringify({ expression: '6*7', result: 42 }) });
  });

  it('replays an upload by the file it carried: the same handle, 201 and Location again; another file under the key is 422', async () => {
    const zip = bundleZip();
    const upload = (key: string, file: Buffer) => {
      const { payload, headers } = multipart(file);
      return a.app.inject({ method: 'POST', url: '/api/bundles', headers: { ...headers, 'idempotency-key': key }, payload });
    };
    const first = await upload('upload-1', zip);
    expect(first.statusCode).toBe(201);
    const again = await upload('upload-1', zip);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers['location']).toBe(first.headers['location']);
    const other = await upload('upload-1', bundleZip({ 'AGENT.md': '---\nid: other\n---\nOther.\n' }));
    expect(other.statusCode).toBe(422);
  });

  it('starts exactly one workflow run when two identical keyed requests race on two instances', async () => {
    const workflowId = await submit(a.app, chain('race', toolStep('now')));
    const url = `/api/workflows/${workflowId}/runs`;
    const race = (app: TestApp) => app.app.inject({ method: 'POST', url, headers: { 'idempotency-key': 'race-1' } });
    const answers = await Promise.all([race(a), race(b), race(a), race(b)]);
    const fresh = answers.filter((res) => res.statusCode === 202 && res.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const res of answers) {
      if (res === fresh[0]) continue;
      // A loser is told the first is in progress, or gets its answer again.
      if (res.statusCode === 409) expect(res.json()).toMatchObject({ title: 'Request in progress' });
      else expect(res.body).toBe(fresh[0]!.body);
    }
    const runs = (await a.app.inject({ method: 'GET', url: `/api/workflows/runs?workflowId=${workflowId}` })).json<{ runs: unknown[] }>();
    expect(runs.runs).toHaveLength(1);
  });

  it('replays a workflow submit (201 with its Location) and an approval decision', async () => {
    const definition = chain('keyed', toolStep('now'));
    const submitKeyed = () => a.app.inject({ method: 'POST', url: '/api/workflows', headers: { 'idempotency-key': 'submit-1' }, payload: definition });
    const first = await submitKeyed();
    expect(first.statusCode).toBe(201);
    const again = await submitKeyed();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['location']).toBe(first.headers['location']);
    expect(again.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    const list = (await a.app.inject({ method: 'GET', url: '/api/workflows' })).json<{ workflows: Array<{ name: string }> }>();
    expect(list.workflows.filter((w) => w.name === 'keyed')).toHaveLength(1);
  });
});

describe('a keyed webhook create (its secret is answered once)', () => {
  it('replays the subscription without its secret, and keeps no secret with the key', async () => {
    const shared = await openSharedTestStorage();
    const t = await buildTestApp({ settings: merge(ANONYMOUS_DEV, { AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'] } } }), deps: { storage: shared.storage } });
    try {
      const create = () =>
        t.app.inject({ method: 'POST', url: '/api/webhooks', headers: { 'idempotency-key': 'hook-1' }, payload: { url: 'http://127.0.0.1:9/in', events: ['eval.run.finished'] } });
      const first = await create();
      expect(first.statusCode, first.body).toBe(201);
      const { secret, ...subscription } = first.json<{ secret: string }>();
      expect(secret).toMatch(/^whsec_/);

      const again = await create();
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['location']).toBe(first.headers['location']);
      expect(again.json()).toEqual(subscription);
      expect(again.body).not.toContain('whsec_');
      expect(again.body).not.toContain(secret.slice('whsec_'.length));

      const kept = await shared.storage.records.list(IDEMPOTENCY_COLLECTION, 'anonymous:dev', { limit: 100, cursor: null });
      expect(kept.records).toHaveLength(1);
      expect(JSON.stringify(kept.records)).not.toContain('whsec_');
      expect(JSON.stringify(kept.records)).not.toContain(secret.slice('whsec_'.length));
    } finally {
      await t.close();
      await shared.dispose();
    }
  });
});

describe('a 10,000-key flood (hostile)', () => {
  it('keeps at most the rate policy’s permits of records, answers the rest 429 storing nothing, and sweeps them after the TTL', async () => {
    const clock = new ManualClock(Date.now());
    const shared = await openSharedTestStorage(clock);
    // Default rate policies (webhooks-write: 30 a minute); no host allowed, so each admitted create is a kept 400.
    const t = await buildTestApp({ deps: { storage: shared.storage, clock } });
    try {
      const body = { url: 'https://hooks.example.com/in', events: ['workflow.run.finished'] };
      const create = (key: string) => t.app.inject({ method: 'POST', url: '/api/webhooks', headers: { 'idempotency-key': key }, payload: body });
      const statuses = new Map<number, number>();
      for (let batch = 0; batch < 100; batch += 1) {
        const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => create(`flood-${batch * 100 + i}`)));
        for (const answer of answers) statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 400: 30, 429: 9_970 });

      const kept = await shared.storage.records.list(IDEMPOTENCY_COLLECTION, 'anonymous:dev', { limit: 1_000, cursor: null });
      expect(kept.records).toHaveLength(30);
      expect(kept.nextCursor).toBeNull();

      // The kept answers expire with the key's TTL (a day by default) and the sweep removes them.
      clock.advance(24 * 3_600_000 + 1);
      expect(await new IdempotencyStore({ storage: shared.storage, clock, ttlMs: 24 * 3_600_000 }).sweep()).toBe(30);
      expect((await shared.storage.records.list(IDEMPOTENCY_COLLECTION, 'anonymous:dev', { limit: 1_000, cursor: null })).records).toEqual([]);
    } finally {
      await t.close();
      await shared.dispose();
    }
  }, 120_000);
});
