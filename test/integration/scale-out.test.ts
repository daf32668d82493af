// Any instance serves any request (DESIGN §11), shown in one process: two apps — two instances with
// their own engines, lanes, staging folders and ids — share one storage (PostgreSQL in the postgres
// project; otherwise a Memory storage that calls itself durable). (The same scenarios across real processes on PostgreSQL, with
// SIGKILL and takeover, are in multi-process.test.ts.)
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/platform/storage/index.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { bundleSettings, bundleZip, multipart, openRawStream } from './bundles-harness.js';
import { attach, chain, gateStep, heldModel, listen, llmStep, poll, pollUntil, statusIs, submit, toolStep, workflowSettings } from './workflows-harness.js';

/** Waits for a condition across real I/O (staging an archive takes more than a few event-loop turns). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let shared: TestStorage;
let storage: Storage;
let dir: string;
let a: TestApp;
let b: TestApp;
let baseA: string;
let baseB: string;
const held = heldModel();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-scale-out-'));
  shared = await openSharedTestStorage();
  storage = shared.storage;
  const settings = (name: string) =>
    merge(bundleSettings(join(dir, name)), workflowSettings({ RateLimits: { 'workflows-read': { PermitsPerMinute: 100_000 }, 'workflows-write': { PermitsPerMinute: 100_000 } } }));
  a = await buildTestApp({ settings: settings('a'), deps: { storage, instanceId: 'instance-a', chatModel: held.model } });
  b = await buildTestApp({ settings: settings('b'), deps: { storage, instanceId: 'instance-b', chatModel: held.model } });
  baseA = await listen(a);
  baseB = await listen(b);
});

afterAll(async () => {
  for (const call of held.calls) call.release('done');
  await a.close();
  await b.close();
  await shared.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('workflows across instances', () => {
  it('a run started on A is polled, streamed live, approved and finished through B, under the same job id', async () => {
    const id = await submit(a.app, chain('across', gateStep('gate', 'Go?'), toolStep('after')));
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    const blocked = await pollUntil(b.app, started.statusUrl, statusIs('Blocked'));
    const parked = await attach(baseB, `${started.statusUrl}/stream`);
    await parked.ended;
    expect(parked.types()).toEqual(['SNAPSHOT', 'PARKED']);
    const decided = await b.app.inject({
      method: 'POST',
      url: `${started.statusUrl}/approvals/${blocked.pendingApprovals[0].approvalId}`,
      payload: { decision: 'Approve', comment: 'from B' },
    });
    expect(decided.statusCode).toBe(200);
    const done = await pollUntil(a.app, started.statusUrl, statusIs('Succeeded'));
    expect(done.jobId).toBe(started.jobId);
    expect(done.steps[0]).toMatchObject({ status: 'Succeeded', output: { decision: 'Approve', comment: 'from B' } });
    const resumed = await attach(baseB, `${started.statusUrl}/stream`, { 'last-event-id': String(parked.frames.at(-1)!.data.sequence) });
    await resumed.ended;
    expect(resumed.types()).toEqual(['STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
  });

  it('streams live STEP frames on B while A executes, and a cancel through B stops the run on A', async () => {
    const id = await submit(b.app, chain('cancel-across', llmStep('think', 'hold'), toolStep('after')));
    const calls = held.calls.length;
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    await until(() => held.calls.length > calls);
    const stream = await attach(baseB, `${started.statusUrl}/stream`);
    await until(() => stream.frames.length >= 1);
    expect(stream.frames[0]!.data).toMatchObject({ type: 'SNAPSHOT', status: 'Running' });
    const cancelled = await b.app.inject({ method: 'DELETE', url: started.statusUrl });
    expect(cancelled.json()).toEqual({ stopped: false, withdrawnApprovals: 0 });
    await stream.ended;
    expect(stream.frames.at(-1)!.data).toMatchObject({ type: 'FINISHED', status: 'Cancelled' });
    expect((await poll(a.app, started.statusUrl)).status).toBe('Cancelled');
  });
});

describe('bundles across instances', () => {
  it('a handle registered on A runs on B from its stored archive, is polled on A, and is deleted through B everywhere', async () => {
    const { payload, headers } = multipart(bundleZip());
    const handle = (await a.app.inject({ method: 'POST', url: '/api/bundles', payload, headers })).json().handle as string;
    const calls = held.calls.length;
    const jobId = (await b.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, payload: { userMessages: ['hi'], conversationId: 'shared-c' } })).json()
      .jobId as string;
    await until(() => held.calls.length > calls);
    held.calls.at(-1)!.release('hello from B');
    for (let i = 0; i < 1_000; i += 1) {
      if ((await a.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs/${jobId}` })).json().status === 'Succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const polled = (await a.app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs/${jobId}` })).json();
    expect(polled).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'hello from B' } });
    expect((await readdir(join(dir, 'b'))).some((name) => name.startsWith('bundle-'))).toBe(true);

    // The conversation continues through A with the history written on B.
    const next = held.calls.length;
    await a.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, payload: { userMessages: ['again'], conversationId: 'shared-c' } });
    await until(() => held.calls.length > next);
    expect(held.calls.at(-1)!.request.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    held.calls.at(-1)!.release('ok');

    expect((await b.app.inject({ method: 'DELETE', url: `/api/bundles/${handle}` })).statusCode).toBe(204);
    expect((await a.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, payload: { userMessages: ['x'] } })).statusCode).toBe(404);
  });

  it('a run reserved for a stream on A is driven by the stream opened on B', async () => {
    const { payload, headers } = multipart(bundleZip());
    const handle = (await a.app.inject({ method: 'POST', url: '/api/bundles', payload, headers })).json().handle as string;
    const started = (await a.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, payload: { userMessages: ['stream me'], stream: true } })).json();
    const calls = held.calls.length;
    const stream = await openRawStream(`${baseB}${started.streamUrl}`);
    await until(() => held.calls.length > calls);
    held.calls.at(-1)!.release('streamed on B');
    await stream.ended;
    const types = stream.frames().map((frame) => frame.type);
    expect(types.at(0)).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect((await a.app.inject({ method: 'GET', url: started.statusUrl })).json().status).toBe('Succeeded');
    const again = await fetch(`${baseA}${started.streamUrl}`);
    expect(again.status).toBe(409);
  });
});

describe('shared limits', () => {
  it('counts a caller’s rate limit across instances', async () => {
    const limits = await openSharedTestStorage();
    const c = await buildTestApp({ settings: merge(bundleSettings(join(dir, 'c')), { AppConfig: { AI: { RateLimits: { 'bundles-poll': { PermitsPerMinute: 3 } } } } }), deps: { storage: limits.storage, instanceId: 'instance-c' } });
    const d = await buildTestApp({ settings: merge(bundleSettings(join(dir, 'd')), { AppConfig: { AI: { RateLimits: { 'bundles-poll': { PermitsPerMinute: 3 } } } } }), deps: { storage: limits.storage, instanceId: 'instance-d' } });
    try {
      const statuses: number[] = [];
      for (const app of [c, d, c, d]) statuses.push((await app.app.inject({ method: 'GET', url: '/api/bundles' })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await c.close();
      await d.close();
      await limits.dispose();
    }
  });
});
