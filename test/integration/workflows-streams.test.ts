// The workflow progress stream against a real listening server, read with an SSE parser: SNAPSHOT
// first, STEP frames with monotonic sequences, FINISHED/PARKED closing, per-watcher GAP, `id:` on
// every frame, Last-Event-ID replay of every frame since, the 503 ceilings, and authorization
// checked once at open. A held chat model keeps runs in flight while the test watches.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { openTestStorage, TEST_STORAGE, type TestStorage } from '../helpers/test-storage.js';
import type { Storage } from '../../src/platform/storage/index.js';
import {
  attach,
  chain,
  gateStep,
  heldModel,
  isFinal,
  listen,
  llmStep,
  pollUntil,
  start,
  statusIs,
  stepIs,
  submit,
  toolStep,
  until,
  workflowSettings,
} from './workflows-harness.js';
import { stripTraceId } from '../helpers/problem-body.js';


const streamPath = (statusUrl: string) => `${statusUrl}/stream`;

describe('progress stream', () => {
  const held = heldModel();
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ settings: workflowSettings({ Workflows: { MaxStepOutputBytes: 2_000_000 } }), deps: { chatModel: held.model } });
    base = await listen(t);
  });
  afterAll(async () => t.close());

  async function runWaitingOnModel(name: string, ...rest: ReturnType<typeof toolStep>[]) {
    const id = await submit(t.app, chain(name, llmStep('think', 'hold'), ...rest));
    const calls = held.calls.length;
    const run = await start(t.app, id);
    await until(() => held.calls.length > calls);
    // The model is asked before the step's Running is committed (on PostgreSQL a round trip later):
    // wait for it, so a SNAPSHOT read now shows the step Running and no STEP frame of it follows.
    await pollUntil(t.app, run.statusUrl, stepIs('think', 'Running'));
    return { ...run, release: (text = 'thought') => held.calls.at(-1)!.release(text) };
  }

  it('opens with SNAPSHOT, then STEP frames in sequence, each with its id line, and closes after FINISHED', async () => {
    const run = await runWaitingOnModel('watch', toolStep('a'), toolStep('b'));
    const stream = await attach(base, streamPath(run.statusUrl));
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.res.headers.get('cache-control')).toBe('no-cache');
    expect(stream.res.headers.get('x-accel-buffering')).toBe('no');
    await until(() => stream.frames.length === 1);
    const snapshot = stream.frames[0]!.data;
    expect(snapshot).toMatchObject({ type: 'SNAPSHOT', jobId: run.jobId, status: 'Running', isTerminal: false });
    expect((snapshot.steps as Array<{ name: string; status: string }>).map((s) => `${s.name}:${s.status}`)).toEqual(['think:Running', 'a:Pending', 'b:Pending']);
    run.release();
    await stream.ended;
    expect(stream.types()).toEqual(['SNAPSHOT', 'STEP', 'STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
    const sequences = stream.frames.map((f) => f.data.sequence!);
    sequences.forEach((sequence, i) => {
      expect(stream.frames[i]!.id).toBe(String(sequence));
      if (i > 0) expect(sequence).toBe(sequences[i - 1]! + 1);
    });
    expect(stream.frames[1]!.data).toEqual({ type: 'STEP', sequence: sequences[1], stepName: 'think', stepId: expect.any(String), status: 'Succeeded', output: 'thought' });
    expect(stream.frames.at(-1)!.data).toEqual({ type: 'FINISHED', sequence: sequences.at(-1), status: 'Succeeded' });
  });

  it('sends only a terminal SNAPSHOT to a watcher of a finished run', async () => {
    const { statusUrl } = await start(t.app, await submit(t.app, chain('finished', toolStep('a'))));
    await pollUntil(t.app, statusUrl, isFinal);
    const stream = await attach(base, streamPath(statusUrl));
    await stream.ended;
    expect(stream.frames).toEqual([{ id: '3', data: expect.objectContaining({ type: 'SNAPSHOT', status: 'Succeeded', isTerminal: true, sequence: 3 }) }]);
  });

  it('sends the SNAPSHOT first even when it alone is larger than 1 MiB', async () => {
    const run = await runWaitingOnModel('bulky');
    run.release('x'.repeat(1_500_000));
    await pollUntil(t.app, run.statusUrl, isFinal);
    const stream = await attach(base, streamPath(run.statusUrl));
    await stream.ended;
    expect(stream.types()).toEqual(['SNAPSHOT']);
    expect(stream.frames[0]!.data).toMatchObject({ status: 'Succeeded', isTerminal: true });
    expect((stream.frames[0]!.data.steps as Array<{ output: string }>)[0]!.output).toHaveLength(1_500_000);
  });

  it('closes with PARKED at a gate; a Blocked run gets SNAPSHOT then PARKED; after approval a re-attach follows it to FINISHED', async () => {
    const run = await runWaitingOnModel('parking', gateStep('gate', 'Go?'), toolStep('after'));
    const live = await attach(base, streamPath(run.statusUrl));
    await until(() => live.frames.length === 1);
    run.release();
    await live.ended;
    expect(live.types()).toEqual(['SNAPSHOT', 'STEP', 'STEP', 'STEP', 'PARKED']);
    const parked = live.frames.at(-1)!.data;
    expect(parked).toEqual({ type: 'PARKED', sequence: expect.any(Number), approvalId: expect.any(String), stepName: 'gate' });

    const blocked = await attach(base, streamPath(run.statusUrl));
    await blocked.ended;
    expect(blocked.types()).toEqual(['SNAPSHOT', 'PARKED']);
    expect(blocked.frames[0]!.data).toMatchObject({ status: 'Blocked', isTerminal: false });
    expect(blocked.frames[1]).toEqual(live.frames.at(-1));

    await t.app.inject({ method: 'POST', url: `${run.statusUrl}/approvals/${String(parked.approvalId)}`, payload: { decision: 'Approve' } });
    await pollUntil(t.app, run.statusUrl, isFinal);
    const resumed = await attach(base, streamPath(run.statusUrl), { 'last-event-id': String(parked.sequence) });
    await resumed.ended;
    expect(resumed.types()).toEqual(['STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
    expect(resumed.frames[0]!.data.sequence).toBe(parked.sequence! + 1);
  });

  it('replays what the run log still holds after Last-Event-ID, frame for frame', async () => {
    const { statusUrl } = await start(t.app, await submit(t.app, chain('replay', toolStep('a'), toolStep('b'), toolStep('c'))));
    await pollUntil(t.app, statusUrl, isFinal);
    const all = await attach(base, streamPath(statusUrl), { 'last-event-id': '0' });
    await all.ended;
    expect(all.types()).toEqual(['STEP', 'STEP', 'STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
    const tail = await attach(base, streamPath(statusUrl), { 'last-event-id': '4' });
    await tail.ended;
    expect(tail.frames).toEqual(all.frames.slice(4));
  });

  it('answers 404 for the stream of an unknown run', async () => {
    const id = await submit(t.app, chain('nothing', toolStep('a')));
    const res = await fetch(`${base}/api/workflows/${id}/runs/nope/stream`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('progress stream between a decision and the resumed run', () => {
  // The window a client re-attaching right after approving meets (on PostgreSQL a decision can reach
  // a run still parking, and the run reads Blocked until its resumed graph commits): held open here
  // by holding the engine's wake of the parked run.
  const held = heldModel();
  let t: TestApp;
  let base: string;
  let opened: TestStorage;
  let heldWake: Promise<void> | undefined;
  beforeAll(async () => {
    opened = await openTestStorage();
    const records = opened.storage.records;
    const holding = new Proxy(records, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'update') return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        return async (...args: Parameters<Storage['records']['update']>) => {
          const [, patch, guard] = args;
          const woken = patch.state === 'Blocked' && patch.lease !== undefined && guard?.states?.includes('Blocked') === true;
          if (woken && heldWake !== undefined) {
            const hold = heldWake;
            heldWake = undefined;
            await hold;
          }
          return records.update(...args);
        };
      },
    });
    t = await buildTestApp({ settings: workflowSettings(), deps: { chatModel: held.model, storage: { ...opened.storage, records: holding } } });
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
    await opened.dispose();
  });

  it('follows a re-attaching watcher on to FINISHED once the gate is answered, rather than telling it again that the run waits', async () => {
    const { statusUrl } = await start(t.app, await submit(t.app, chain('answered', gateStep('gate', 'Go?'), toolStep('after'))));
    const first = await attach(base, streamPath(statusUrl));
    await first.ended;
    const parked = first.frames.at(-1)!.data;
    expect(parked).toMatchObject({ type: 'PARKED', stepName: 'gate' });

    let release!: () => void;
    heldWake = new Promise<void>((resolve) => (release = resolve));
    const deciding = t.app.inject({ method: 'POST', url: `${statusUrl}/approvals/${String(parked.approvalId)}`, payload: { decision: 'Approve' } });
    await vi.waitFor(async () => expect((await t.app.inject({ url: `/api/approvals/${String(parked.approvalId)}` })).json()).toMatchObject({ status: 'Approved' }), { timeout: 15_000 });
    expect((await t.app.inject({ url: statusUrl })).json()).toMatchObject({ status: 'Blocked' });

    const again = await attach(base, streamPath(statusUrl), { 'last-event-id': String(parked.sequence) });
    const fresh = await attach(base, streamPath(statusUrl));
    await until(() => fresh.frames.length >= 1);
    expect(fresh.frames[0]!.data).toMatchObject({ type: 'SNAPSHOT', status: 'Blocked', isTerminal: false });
    expect(again.frames.map((frame) => frame.data.type)).not.toContain('PARKED');

    release();
    expect((await deciding).statusCode).toBe(200);
    await Promise.all([again.ended, fresh.ended]);
    expect(again.types()).toEqual(['STEP', 'STEP', 'STEP', 'STEP', 'FINISHED']);
    expect(again.frames.at(-1)!.data).toMatchObject({ type: 'FINISHED', status: 'Succeeded' });
    expect(fresh.types().at(-1)).toBe('FINISHED');
  });
});

describe('progress stream with small watcher buffers', () => {
  const held = heldModel();
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ settings: workflowSettings({ Workflows: { WatcherBufferFrames: 2 } }), deps: { chatModel: held.model } });
    base = await listen(t);
  });
  afterAll(async () => t.close());

  // On PostgreSQL each checkpoint is a database round trip, so a watcher never falls ten frames behind
  // within one event-loop turn; the buffer is the same code on both (progress-watcher.test.ts too).
  it.skipIf(TEST_STORAGE === 'Postgres')('drops the oldest frames of a watcher that falls behind and reports how many with GAP', async () => {
    const id = await submit(t.app, chain('burst', llmStep('think', 'hold'), toolStep('a'), toolStep('b'), toolStep('c'), toolStep('d')));
    const calls = held.calls.length;
    const { statusUrl } = await start(t.app, id);
    await until(() => held.calls.length > calls);
    const stream = await attach(base, streamPath(statusUrl));
    await until(() => stream.frames.length === 1);
    // The rest of the run happens within one event-loop turn: ten frames into a buffer of two.
    held.calls.at(-1)!.release('go');
    await stream.ended;
    expect(stream.types()).toEqual(['SNAPSHOT', 'GAP', 'STEP', 'FINISHED']);
    const snapshotSequence = stream.frames[0]!.data.sequence!;
    expect(stream.frames[1]).toEqual({ id: String(snapshotSequence + 8), data: { type: 'GAP', droppedCount: 8 } });
    expect(stream.frames[2]!.data).toMatchObject({ stepName: 'd', status: 'Succeeded', sequence: snapshotSequence + 9 });
    expect(stream.frames[3]!.data).toMatchObject({ type: 'FINISHED', sequence: snapshotSequence + 10 });
  });

  it('resumes after Last-Event-ID with every frame the run logged since, however small the watcher buffer (DESIGN §11)', async () => {
    const { statusUrl } = await start(t.app, await submit(t.app, chain('remembered', toolStep('a'), toolStep('b'))));
    await pollUntil(t.app, statusUrl, isFinal);
    const stream = await attach(base, streamPath(statusUrl), { 'last-event-id': '1' });
    await stream.ended;
    expect(stream.frames.map((f) => [f.id, f.data.type, f.data.stepName ?? f.data.status])).toEqual([
      ['2', 'STEP', 'a'],
      ['3', 'STEP', 'b'],
      ['4', 'STEP', 'b'],
      ['5', 'FINISHED', 'Succeeded'],
    ]);
  });
});

describe('stream ceilings and authorization', () => {
  const held = heldModel();
  const clock = new ManualClock(Date.now());
  let idp: DevIdp;
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    idp = await startTestIdp();
    t = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: held.model, clock },
      settings: idpSettings(idp, {
        BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } },
        Workflows: { MaxProgressStreamsPerOwner: 1, MaxConcurrentProgressStreams: 2 },
      }),
    });
    base = await listen(t);
  });
  afterAll(async () => {
    for (const call of held.calls) call.release('done');
    await t.close();
    await idp.close();
  });

  /** Tokens carry the real time in `nbf`; the injected clock must not lag behind it. */
  function catchUp(): void {
    clock.set(Math.max(clock.now(), Date.now() + 1_000));
  }

  async function heldRun(headers: Record<string, string>, name: string) {
    catchUp();
    const id = await submit(t.app, chain(name, llmStep('think', 'hold'), toolStep('after')), headers);
    const calls = held.calls.length;
    const run = await start(t.app, id, undefined, headers);
    await until(() => held.calls.length > calls);
    await pollUntil(t.app, run.statusUrl, stepIs('think', 'Running'), headers); // committed, as above
    return { ...run, call: held.calls.at(-1)! };
  }

  it('answers 503 at the per-owner and at the host-wide ceiling, and frees a slot when a stream closes', async () => {
    const alice = bearer(await idp.mintToken({ sub: 'alice' }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }));
    const carol = bearer(await idp.mintToken({ sub: 'carol' }));
    const aliceRun = await heldRun(alice, 'ceiling-a');
    const bobRun = await heldRun(bob, 'ceiling-b');
    const carolRun = await heldRun(carol, 'ceiling-c');
    const first = await attach(base, streamPath(aliceRun.statusUrl), alice);
    expect(first.res.status).toBe(200);
    const ownerCeiling = await attach(base, streamPath(aliceRun.statusUrl), alice);
    expect(ownerCeiling.res.status).toBe(503);
    expect(await ownerCeiling.res.json()).toMatchObject({ status: 503, title: 'Service unavailable' });
    const second = await attach(base, streamPath(bobRun.statusUrl), bob);
    expect(second.res.status).toBe(200);
    const hostCeiling = await attach(base, streamPath(carolRun.statusUrl), carol);
    expect(hostCeiling.res.status).toBe(503);
    aliceRun.call.release('done');
    await first.ended;
    // The slot is given back as the stream ends (on PostgreSQL one round trip later): retry briefly.
    let third = await attach(base, streamPath(carolRun.statusUrl), carol);
    for (let attempt = 0; third.res.status === 503 && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      third = await attach(base, streamPath(carolRun.statusUrl), carol);
    }
    expect(third.res.status).toBe(200);
    // The headers come before the SNAPSHOT is read: let it be read while the run is still held,
    // or it would (rightly) be a terminal SNAPSHOT with no FINISHED after it.
    await until(() => second.frames.length >= 1 && third.frames.length >= 1);
    bobRun.call.release('done');
    carolRun.call.release('done');
    await Promise.all([second.ended, third.ended]);
    expect(third.types().at(-1)).toBe('FINISHED');
  });

  it('checks authorization once, at open: a stream outlives its token and runs to FINISHED', async () => {
    const dave = bearer(await idp.mintToken({ sub: 'dave' }, { ttlSeconds: 600 }));
    const run = await heldRun(dave, 'outlive');
    const stream = await attach(base, streamPath(run.statusUrl), dave);
    await until(() => stream.frames.length === 1);
    clock.advance(3_600_000);
    expect((await t.app.inject({ method: 'GET', url: run.statusUrl, headers: dave })).statusCode).toBe(401);
    run.call.release('still here');
    await stream.ended;
    expect(stream.types()).toEqual(['SNAPSHOT', 'STEP', 'STEP', 'STEP', 'FINISHED']);
  });

  it('answers a stream of another caller’s run exactly like an unknown one', async () => {
    // Long-lived: an earlier test moved the injected clock an hour ahead.
    const erin = bearer(await idp.mintToken({ sub: 'erin' }, { ttlSeconds: 86_400 }));
    const frank = bearer(await idp.mintToken({ sub: 'frank' }, { ttlSeconds: 86_400 }));
    catchUp();
    const id = await submit(t.app, chain('private', toolStep('a')), erin);
    const { jobId, statusUrl } = await start(t.app, id, undefined, erin);
    await pollUntil(t.app, statusUrl, statusIs('Succeeded'), erin);
    const foreign = await fetch(`${base}/api/workflows/${id}/runs/${jobId}/stream`, { headers: frank });
    const unknown = await fetch(`${base}/api/workflows/${id}/runs/unknown-job/stream`, { headers: frank });
    expect(foreign.status).toBe(404);
    const [a, b] = [(await foreign.json()) as Record<string, unknown>, (await unknown.json()) as Record<string, unknown>];
    expect({ ...stripTraceId(a), instance: '' }).toEqual({ ...stripTraceId(b), instance: '' });
    expect(foreign.headers.get('x-request-id')).not.toBe(unknown.headers.get('x-request-id'));
  });
});

describe('shutdown', () => {
  // Memory only: on a durable storage a closing host leaves the run for another instance (DESIGN §11),
  // which multi-process.test.ts shows with real processes.
  it.skipIf(TEST_STORAGE === 'Postgres')('stops live runs when the host closes, so open streams end with FINISHED Cancelled', async () => {
    const held = heldModel();
    const t = await buildTestApp({ settings: workflowSettings(), deps: { chatModel: held.model } });
    const base = await listen(t);
    const { statusUrl } = await start(t.app, await submit(t.app, chain('shutdown', llmStep('think', 'hold'))));
    await until(() => held.calls.length === 1);
    const stream = await attach(base, streamPath(statusUrl));
    await until(() => stream.frames.length === 1);
    await t.close();
    await stream.ended;
    expect(held.calls[0]!.request.signal.aborted).toBe(true);
    expect(stream.frames.at(-1)!.data).toMatchObject({ type: 'FINISHED', status: 'Cancelled', error: 'The run was cancelled.' });
  });
});
