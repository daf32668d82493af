// Bundle handles over HTTP: DELETE's statuses (204 always, 400 for a malformed request), staging
// directories removed on delete and on expiry but never under a running run's lease, and the sweeper
// that removes expired handles every CleanupInterval.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatModel } from '../../src/models/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, deleteHandle, gatedModel, poll, registerHandle, settled, startJob, startRun } from './bundles-harness.js';

const MINUTE = 60_000;
let base: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-handles-'));
});
afterEach(async () => {
  vi.useRealTimers();
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function app(ai: Record<string, unknown> = {}, deps: { clock?: ManualClock; chatModel?: ChatModel } = {}): Promise<{ t: TestApp; root: string }> {
  const root = join(base, `root-${++roots}`);
  const t = await buildTestApp({ settings: bundleSettings(root, ai), deps });
  apps.push(t);
  return { t, root };
}

const staged = async (root: string): Promise<string[]> => (await readdir(root).catch(() => [])).filter((name) => name.startsWith('bundle-'));

describe('DELETE /api/bundles/{handle}', () => {
  it('204 with no body, removes the staging directory, and is idempotent', async () => {
    const { t, root } = await app();
    const handle = await registerHandle(t.app);
    expect(await staged(root)).toHaveLength(1);
    const res = await deleteHandle(t.app, handle);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await staged(root)).toEqual([]);
    expect((await deleteHandle(t.app, handle)).statusCode).toBe(204);
    expect((await startRun(t.app, handle, { userMessages: ['m'] })).statusCode).toBe(404);
  });

  it('204 for an expired handle, whose directory went when the expiry was noticed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const { t, root } = await app({ BundleExecution: { HandleTtl: '00:10:00' } }, { clock });
    const handle = await registerHandle(t.app);
    clock.advance(10 * MINUTE);
    expect((await deleteHandle(t.app, handle)).statusCode).toBe(204);
    expect(await staged(root)).toEqual([]);
  });

  it('400 for a malformed request body', async () => {
    const { t } = await app();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/bundles/h', headers: { 'content-type': 'application/json' }, payload: '{"unterminated' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('Validation failed');
  });
});

describe('leases', () => {
  it('keep a running run’s staging directory through DELETE and remove it when the run ends', async () => {
    const model = gatedModel();
    const { t, root } = await app({}, { chatModel: model });
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['still working'] });
    await model.arrived(1);
    expect((await deleteHandle(t.app, handle)).statusCode).toBe(204);
    expect(await staged(root)).toHaveLength(1);
    model.release(0);
    expect(await settled(t.app, handle, jobId)).toMatchObject({ status: 'Succeeded' });
    await poll(t.app, handle, jobId); // naming the handle waits for pending removals
    expect(await staged(root)).toEqual([]);
  });

  it('keep it through expiry too: a handle that expires under a running run is removed once the run ends', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const model = gatedModel();
    const { t, root } = await app({ BundleExecution: { HandleTtl: '00:10:00' } }, { clock, chatModel: model });
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['long'] });
    await model.arrived(1);
    clock.advance(10 * MINUTE);
    expect((await startRun(t.app, handle, { userMessages: ['m'] })).statusCode).toBe(404);
    expect(await staged(root)).toHaveLength(1);
    model.release(0);
    await settled(t.app, handle, jobId);
    await poll(t.app, handle, jobId);
    expect(await staged(root)).toEqual([]);
  });
});

describe('the sweeper', () => {
  it('removes expired handles and their directories every CleanupInterval, and leaves live ones alone', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const { t, root } = await app({ BundleExecution: { HandleTtl: '00:10:00', CleanupInterval: '00:01:00' } }, { clock });
    await registerHandle(t.app);
    clock.advance(5 * MINUTE);
    const live = await registerHandle(t.app);
    clock.advance(5 * MINUTE);
    expect(await staged(root)).toHaveLength(2);
    vi.advanceTimersByTime(MINUTE);
    await new Promise((resolve) => setImmediate(resolve)); // let the sweep's removal begin
    await deleteHandle(t.app, 'unrelated'); // any request naming a handle waits for pending removals
    expect(await staged(root)).toHaveLength(1);
    expect((await startRun(t.app, live, { userMessages: ['m'] })).statusCode).toBe(202);
  });
});
