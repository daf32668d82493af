// Every row of SPEC.md's bundle run state table over HTTP, plus start-run and poll statuses. TTL rows
// run on a ManualClock; queueing rows on a chat model that answers only when the test releases it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/models/index.js';
import { ManualClock, randomIds, type IdGenerator } from '../../src/platform/clock/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeOpenAIServer } from '../helpers/fake-openai-server.js';
import {
  bundleSettings,
  deleteHandle,
  gatedModel,
  poll,
  registerHandle,
  settled,
  startJob,
  startRun,
} from './bundles-harness.js';

const MINUTE = 60_000;
let base: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-runs-'));
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
interface AppOptions {
  readonly ai?: Record<string, unknown>;
  readonly clock?: ManualClock;
  readonly chatModel?: ChatModel | null;
  readonly ids?: IdGenerator;
}
async function app(options: AppOptions = {}): Promise<TestApp> {
  const deps = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.chatModel !== undefined ? { chatModel: options.chatModel } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
  };
  const t = await buildTestApp({ settings: bundleSettings(join(base, `root-${++roots}`), options.ai ?? {}), deps });
  apps.push(t);
  return t;
}

/** Reads a stream to its end in-process (inject); for runs that end on their own. */
async function streamFrames(t: TestApp, streamUrl: string): Promise<Record<string, unknown>[]> {
  const res = await t.app.inject({ method: 'GET', url: streamUrl });
  expect(res.statusCode).toBe(200);
  return res.body
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

describe('run state table', () => {
  it('(none) → Queued on start-run without stream, enqueued; the dispatcher runs at most MaxConcurrentDispatchedBundleRuns, further runs wait', async () => {
    const model = gatedModel();
    const t = await app({ chatModel: model, ai: { BundleExecution: { MaxConcurrentDispatchedBundleRuns: 1 } } });
    const handle = await registerHandle(t.app);
    const first = await startJob(t.app, handle, { userMessages: ['one'] });
    const second = await startJob(t.app, handle, { userMessages: ['two'] });

    await model.arrived(1);
    const running = (await poll(t.app, handle, first)).json();
    expect(running).toMatchObject({ status: 'Running', error: null, completedAt: null, result: null });
    expect(running.startedAt).toEqual(expect.any(String));
    const waiting = (await poll(t.app, handle, second)).json();
    expect(waiting).toMatchObject({ status: 'Queued', startedAt: null, completedAt: null, result: null, error: null });
    expect(model.requests).toHaveLength(1);

    model.release(0);
    expect(await settled(t.app, handle, first)).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'You said: one' } });
    await model.arrived(2);
    model.release(1);
    expect(await settled(t.app, handle, second)).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'You said: two' } });
  });

  it('(none) → Queued on start-run with stream, reserved and not enqueued: nothing runs until the stream URL is opened', async () => {
    const model = gatedModel();
    const t = await app({ chatModel: model });
    const handle = await registerHandle(t.app);
    const reserved = await startRun(t.app, handle, { userMessages: ['reserved'], stream: true });
    expect(reserved.statusCode).toBe(202);
    const { jobId, streamUrl } = reserved.json();
    // A background run started later is dispatched and finishes; the reserved one is untouched.
    const background = await startJob(t.app, handle, { userMessages: ['background'] });
    await model.arrived(1);
    model.release(0);
    await settled(t.app, handle, background);
    expect(model.requests).toHaveLength(1);
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({ status: 'Queued', startedAt: null });

    // Queued (reserved) → GET stream opened → Running, driven on the connection.
    const frames = t.app.inject({ method: 'GET', url: streamUrl });
    await model.arrived(2);
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({ status: 'Running' });
    model.release(1);
    const res = await frames;
    expect(res.body.startsWith(`data: {"type":"RUN_STARTED","threadId":"${handle}","runId":"${jobId}"}\n\n`)).toBe(true);
    expect(await settled(t.app, handle, jobId)).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'You said: reserved' } });
  });

  it('Running → Succeeded when the conversation completes: result populated, usage reported, input never echoed', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['call clock now', 'call calculator evaluate {"expression":"1+1"}', 'third'], maxTurns: 2 });
    const run = await settled(t.app, handle, jobId);
    expect(Object.keys(run).sort()).toEqual(['completedAt', 'createdAt', 'error', 'jobId', 'result', 'startedAt', 'status', 'usage']);
    expect(run).toMatchObject({ jobId, status: 'Succeeded', error: null });
    expect(run.result).toEqual({
      conversationSucceeded: true,
      finalResponse: expect.stringContaining('calculator:'),
      turnCount: 2,
      totalToolInvocations: 2,
      budgetExhausted: false,
      conversationError: null,
    });
    expect(run.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), costUsd: 0 }); // no pricing configured
    const text = JSON.stringify(run);
    for (const input of ['call clock now', 'third', 'maxTurns', 'userMessages', 'envelope', 'Autonomous', 'AllowedTools']) {
      expect(text).not.toContain(input);
    }
    // A finished run's answer is written once and kept: later polls answer the same bytes, as JSON.
    const [first, second] = [await poll(t.app, handle, jobId), await poll(t.app, handle, jobId)];
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    expect(JSON.parse(second.body)).toEqual(run);
  });

  it('Running → Succeeded with conversationSucceeded false when the chat model fails, or none is configured', async () => {
    const fake = await startFakeOpenAIServer([{ type: 'error', status: 400 }]);
    try {
      const t = await app({ ai: { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'x', ApiKey: 'sk-test' } } });
      const handle = await registerHandle(t.app);
      const run = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['hi'] }));
      expect(run).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: false, turnCount: 1, finalResponse: '' } });
      expect((run.result as { conversationError: string }).conversationError).toEqual(expect.any(String));
      expect((run.result as { conversationError: string }).conversationError).not.toContain('fake error');
    } finally {
      await fake.close();
    }
    const none = await app({ chatModel: null });
    const handle = await registerHandle(none.app);
    expect(await settled(none.app, handle, await startJob(none.app, handle, { userMessages: ['hi'] }))).toMatchObject({
      status: 'Succeeded',
      result: { conversationSucceeded: false, conversationError: 'No chat model is configured on this host.', turnCount: 0 },
    });
  });

  it('Running → Failed with bundle_run.unhandled_exception when execution throws, in the poll and as RUN_ERROR', async () => {
    const broken: ChatModel = {
      specificationVersion: 'portcullis-chat-v1',
      provider: 'Scripted',
      modelId: 'broken',
      // eslint-disable-next-line require-yield -- it fails before yielding, like a provider bug would
      async *stream() {
        throw new TypeError('secret internal detail');
      },
    };
    const t = await app({ chatModel: broken });
    const handle = await registerHandle(t.app);
    const background = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['hi'] }));
    expect(background).toMatchObject({ status: 'Failed', error: 'bundle_run.unhandled_exception', result: null });
    expect(background.startedAt).toEqual(expect.any(String));
    expect(JSON.stringify(background)).not.toContain('secret internal detail');

    const streamed = (await startRun(t.app, handle, { userMessages: ['hi'], stream: true })).json();
    const frames = await streamFrames(t, streamed.streamUrl);
    expect(frames.at(-1)).toEqual({ type: 'RUN_ERROR', message: 'bundle_run.unhandled_exception' });
    expect(frames.filter((f) => f.type === 'RUN_ERROR' || f.type === 'RUN_FINISHED')).toHaveLength(1);
  });

  it('Queued → Failed when the handle expired before a reserved run’s stream was opened', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await app({ clock, ai: { BundleExecution: { HandleTtl: '00:10:00', StreamReservationTtl: '00:30:00' } } });
    const handle = await registerHandle(t.app);
    const { jobId, streamUrl } = (await startRun(t.app, handle, { userMessages: ['late'], stream: true })).json();
    clock.advance(10 * MINUTE);
    const frames = await streamFrames(t, streamUrl);
    expect(frames).toEqual([
      { type: 'RUN_STARTED', threadId: handle, runId: jobId },
      { type: 'RUN_ERROR', message: 'The bundle handle expired before the run started.' },
    ]);
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({
      status: 'Failed',
      error: 'The bundle handle expired before the run started.',
      startedAt: null,
      completedAt: '2026-01-01T00:10:00.000Z',
      result: null,
    });
  });

  it('Queued → Failed when the handle expired while a background run waited for a dispatch slot', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const model = gatedModel();
    const t = await app({ clock, chatModel: model, ai: { BundleExecution: { HandleTtl: '00:10:00', MaxConcurrentDispatchedBundleRuns: 1 } } });
    const handle = await registerHandle(t.app);
    const first = await startJob(t.app, handle, { userMessages: ['first'] });
    const second = await startJob(t.app, handle, { userMessages: ['second'] });
    await model.arrived(1);
    clock.advance(10 * MINUTE);
    model.release(0);
    expect(await settled(t.app, handle, first)).toMatchObject({ status: 'Succeeded' });
    expect(await settled(t.app, handle, second)).toMatchObject({
      status: 'Failed',
      error: 'The bundle handle expired before the run started.',
      startedAt: null,
    });
    expect(model.requests).toHaveLength(1);
  });

  it('Queued (reserved) → Failed when no stream is opened within StreamReservationTtl (inclusive), and the slot is freed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await app({ clock, ai: { BundleExecution: { StreamReservationTtl: '00:05:00', MaxActiveBundleRunsPerOwner: 1 } } });
    const handle = await registerHandle(t.app);
    const { jobId, streamUrl } = (await startRun(t.app, handle, { userMessages: ['never opened'], stream: true })).json();
    clock.advance(5 * MINUTE - 1);
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({ status: 'Queued' });
    expect((await startRun(t.app, handle, { userMessages: ['over the cap'] })).statusCode).toBe(429);
    clock.advance(1);
    expect((await poll(t.app, handle, jobId)).json()).toMatchObject({
      status: 'Failed',
      error: 'The stream reservation expired before the stream was opened.',
      startedAt: null,
      completedAt: '2026-01-01T00:05:00.000Z',
    });
    const late = await t.app.inject({ method: 'GET', url: streamUrl });
    expect(late.statusCode).toBe(409);
    expect((await startRun(t.app, handle, { userMessages: ['fits again'] })).statusCode).toBe(202);
  });

  it('a terminal run stays pollable for RunRecordTtl — even after its handle is deleted — then answers 404', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await app({ clock, ai: { BundleExecution: { RunRecordTtl: '00:30:00' } } });
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['hi'] });
    await settled(t.app, handle, jobId);
    expect((await deleteHandle(t.app, handle)).statusCode).toBe(204);
    clock.advance(30 * MINUTE - 1);
    expect((await poll(t.app, handle, jobId)).statusCode).toBe(200);
    clock.advance(1);
    const gone = await poll(t.app, handle, jobId);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe('Bundle run not found. It may never have existed, expired, or belongs to a different caller.');
  });
});

describe('GET /api/bundles/{handle}/runs/{jobId}', () => {
  it('answers a finished run the same on every poll (kept in memory after the first), and 404 under another handle as for an unknown job', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const other = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['hi'] });
    await settled(t.app, handle, jobId);
    const polls = [];
    for (let i = 0; i < 3; i += 1) polls.push(await poll(t.app, handle, jobId));
    expect(polls.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(polls[0]!.json()).toMatchObject({ jobId, status: 'Succeeded' });
    expect(new Set(polls.map((res) => res.body)).size).toBe(1);
    expect(new Set(polls.map((res) => res.headers['content-type']))).toEqual(new Set(['application/json; charset=utf-8']));
    const elsewhere = await poll(t.app, other, jobId);
    const unknown = await poll(t.app, other, 'no-such-job');
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().detail).toBe(unknown.json().detail);
  });
});

describe('POST /api/bundles/{handle}/runs', () => {
  it('202 with jobId, statusUrl, streamUrl null for a background run, and Location carrying the status URL', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const res = await startRun(t.app, handle, { userMessages: ['hi'] });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({ jobId: expect.any(String), statusUrl: `/api/bundles/${handle}/runs/${body.jobId}`, streamUrl: null });
    expect(res.headers.location).toBe(body.statusUrl);
    const streamed = (await startRun(t.app, handle, { userMessages: ['hi'], stream: true })).json();
    expect(streamed.streamUrl).toBe(`${streamed.statusUrl}/stream`);
  });

  it('accepts the inclusive maxima: 100 messages and maxTurns 100', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const res = await startRun(t.app, handle, { userMessages: Array.from({ length: 100 }, (_, i) => `m${i}`), maxTurns: 100 });
    expect(res.statusCode).toBe(202);
    expect(await settled(t.app, handle, res.json().jobId)).toMatchObject({ result: { turnCount: 100 } });
  });

  it('defaults maxTurns to 10', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: Array.from({ length: 12 }, (_, i) => `m${i}`) });
    expect(await settled(t.app, handle, jobId)).toMatchObject({ result: { turnCount: 10, finalResponse: 'You said: m9' } });
  });

  it.each([
    ['no messages', {}],
    ['an empty message list', { userMessages: [] }],
    ['an empty message', { userMessages: ['ok', ''] }],
    ['a blank message', { userMessages: ['   '] }],
    ['a message that is not a string', { userMessages: [42] }],
    ['more than 100 messages', { userMessages: Array.from({ length: 101 }, () => 'm') }],
    ['maxTurns 0', { userMessages: ['m'], maxTurns: 0 }],
    ['maxTurns 101', { userMessages: ['m'], maxTurns: 101 }],
    ['a fractional maxTurns', { userMessages: ['m'], maxTurns: 1.5 }],
    ['a malformed conversationId', { userMessages: ['m'], conversationId: 'has space' }],
    ['a conversationId over 200 characters', { userMessages: ['m'], conversationId: 'c'.repeat(201) }],
    ['a non-boolean stream', { userMessages: ['m'], stream: 'yes' }],
    ['an unknown property', { userMessages: ['m'], owner: 'someone-else' }],
  ])('400 for %s', async (_case, body) => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const res = await startRun(t.app, handle, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('Validation failed');
  });

  it('400 for a body that is not JSON', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    const res = await t.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect(res.statusCode).toBe(400);
  });

  it('accepts a conversationId of exactly 200 characters', async () => {
    const t = await app();
    const handle = await registerHandle(t.app);
    expect((await startRun(t.app, handle, { userMessages: ['m'], conversationId: 'c'.repeat(200) })).statusCode).toBe(202);
  });

  it('404 for an unknown, deleted or expired handle; the handle TTL slides on every request naming it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await app({ clock, ai: { BundleExecution: { HandleTtl: '00:10:00' } } });
    expect((await startRun(t.app, 'unknown', { userMessages: ['m'] })).statusCode).toBe(404);

    const deleted = await registerHandle(t.app);
    await deleteHandle(t.app, deleted);
    expect((await startRun(t.app, deleted, { userMessages: ['m'] })).statusCode).toBe(404);

    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['m'] });
    await settled(t.app, handle, jobId);
    clock.advance(9 * MINUTE);
    await poll(t.app, handle, jobId); // names the handle: slides it to 19 min
    clock.advance(9 * MINUTE);
    expect((await startRun(t.app, handle, { userMessages: ['m'] })).statusCode).toBe(202); // slides to 28 min
    clock.advance(10 * MINUTE);
    const expired = await startRun(t.app, handle, { userMessages: ['m'] });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().detail).toBe('Bundle handle not found or expired. Register the bundle again to obtain a fresh handle.');
  });

  it('429 once the caller has MaxActiveBundleRunsPerOwner queued or running runs, in any dispatch mode', async () => {
    const model = gatedModel();
    const t = await app({ chatModel: model, ai: { BundleExecution: { MaxActiveBundleRunsPerOwner: 2 } } });
    const handle = await registerHandle(t.app);
    const background = await startJob(t.app, handle, { userMessages: ['a'] });
    expect((await startRun(t.app, handle, { userMessages: ['b'], stream: true })).statusCode).toBe(202);
    const refused = await startRun(t.app, handle, { userMessages: ['c'] });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    await model.arrived(1);
    model.release(0);
    await settled(t.app, handle, background);
    expect((await startRun(t.app, handle, { userMessages: ['d'], stream: true })).statusCode).toBe(202);
  });

  it('429 beyond the bundles-runs rate, and poll and delete each have their own policy', async () => {
    const limits = { 'bundles-runs': { PermitsPerMinute: 2 }, 'bundles-poll': { PermitsPerMinute: 2 }, 'bundles-delete': { PermitsPerMinute: 2 } };
    const t = await app({ ai: { RateLimits: limits } });
    const handle = await registerHandle(t.app);
    const jobId = await startJob(t.app, handle, { userMessages: ['m'] });
    expect((await startRun(t.app, handle, { userMessages: ['m'] })).statusCode).toBe(202);
    expect((await startRun(t.app, handle, { userMessages: ['m'] })).statusCode).toBe(429);
    expect((await poll(t.app, handle, jobId)).statusCode).toBe(200);
    expect((await poll(t.app, handle, jobId)).statusCode).toBe(200);
    expect((await poll(t.app, handle, jobId)).statusCode).toBe(429);
    expect((await deleteHandle(t.app, 'x')).statusCode).toBe(204);
    expect((await deleteHandle(t.app, 'y')).statusCode).toBe(204);
    const refused = await deleteHandle(t.app, 'z');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.any(String));
  });

  it('500 with the generic body when something unexpected fails, the cause only in the log', async () => {
    let failIds = false;
    const ids: IdGenerator = {
      opaque: () => {
        if (failIds) throw new Error('entropy pool on fire');
        return randomIds.opaque();
      },
      uuid: () => randomIds.uuid(),
    };
    const t = await app({ ids });
    const handle = await registerHandle(t.app);
    failIds = true;
    const res = await startRun(t.app, handle, { userMessages: ['m'] });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ title: 'Bundle operation failed', detail: 'An unexpected error occurred. The host log has the details.' });
    expect(res.body).not.toContain('entropy');
  });
});
