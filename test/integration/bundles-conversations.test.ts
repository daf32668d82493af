// Conversations over HTTP (SPEC.md RunBundleRequest.conversationId): created on first use, owned by the
// first caller (another caller gets 404), serialised, replayed as a window of MaxHistoryMessages, bounded
// by a lifetime token budget (budgetExhausted, not a failure), kept for a sliding Conversations:Ttl.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import type { ChatModel } from '../../src/models/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequestBody } from '../helpers/fake-openai-server.js';
import { bundleSettings, gatedModel, poll, registerHandle, settled, startJob, startRun } from './bundles-harness.js';

const MINUTE = 60_000;
let base: string;
const apps: TestApp[] = [];
const fakes: FakeOpenAIServer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-conversations-'));
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const fake of fakes.splice(0)) await fake.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function app(ai: Record<string, unknown> = {}, deps: { clock?: ManualClock; chatModel?: ChatModel } = {}): Promise<TestApp> {
  const t = await buildTestApp({ settings: bundleSettings(join(base, `root-${++roots}`), ai), deps });
  apps.push(t);
  return t;
}

/** A fake OpenAI server answering `reply-N` to the N-th request, with 10 input and 5 output tokens each. */
async function countingModel(): Promise<{ fake: FakeOpenAIServer; ai: Record<string, unknown> }> {
  let n = 0;
  const fake = await startFakeOpenAIServer(() => openAIText(`reply-${++n}`));
  fakes.push(fake);
  return { fake, ai: { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'x', ApiKey: 'sk-test' } } };
}

/** The chat messages of a recorded request as `role:content` strings. */
function transcript(body: FakeRequestBody): string[] {
  return (body.messages as Array<{ role: string; content: string | null }>).map((m) => `${m.role}:${m.content ?? ''}`);
}

describe('conversations', () => {
  it('are created on first use and replay their history to the next run naming them', async () => {
    const { fake, ai } = await countingModel();
    const t = await app(ai);
    const handle = await registerHandle(t.app);
    await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['m1'], conversationId: 'chat-1' }));
    await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['m2'], conversationId: 'chat-1' }));
    await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['alone'] }));
    expect(transcript(fake.requests[1]!.body).slice(1)).toEqual(['user:m1', 'assistant:reply-1', 'user:m2']);
    // Without conversationId the messages are the whole conversation.
    expect(transcript(fake.requests[2]!.body).slice(1)).toEqual(['user:alone']);
  });

  it('give the agent only the last MaxHistoryMessages messages', async () => {
    const { fake, ai } = await countingModel();
    const t = await app({ ...ai, Conversations: { MaxHistoryMessages: 3 } });
    const handle = await registerHandle(t.app);
    await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['m1', 'm2'], conversationId: 'window' }));
    await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['m3'], conversationId: 'window' }));
    expect(transcript(fake.requests[2]!.body).slice(1)).toEqual(['assistant:reply-1', 'user:m2', 'assistant:reply-2', 'user:m3']);
  });

  it('are serialised: a second run naming the conversation waits until the first has written its turn back', async () => {
    const model = gatedModel();
    const t = await app({}, { chatModel: model });
    const handle = await registerHandle(t.app);
    const first = await startJob(t.app, handle, { userMessages: ['first'], conversationId: 'serial' });
    await model.arrived(1);
    const second = await startJob(t.app, handle, { userMessages: ['second'], conversationId: 'serial' });
    const other = await startJob(t.app, handle, { userMessages: ['elsewhere'], conversationId: 'other' });
    await model.arrived(2);
    // The run on another conversation got through; the second run on `serial` is waiting.
    expect(model.requests.map((r) => r.messages.at(-1)!.content)).toEqual(['first', 'elsewhere']);
    expect((await poll(t.app, handle, second)).json().result).toBeNull();
    model.release(1);
    await settled(t.app, handle, other);
    expect(model.requests).toHaveLength(2);
    model.release(0);
    await model.arrived(3);
    expect(model.requests[2]!.messages.map((m) => `${m.role}:${m.content}`).slice(1)).toEqual(['user:first', 'assistant:You said: first', 'user:second']);
    model.release(2);
    expect(await settled(t.app, handle, first)).toMatchObject({ status: 'Succeeded' });
    expect(await settled(t.app, handle, second)).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'You said: second' } });
  });

  it('stop gracefully on the lifetime token budget: budgetExhausted, still succeeded', async () => {
    const { fake, ai } = await countingModel();
    const t = await app({ ...ai, Conversations: { MaxLifetimeTokens: 20 } });
    const handle = await registerHandle(t.app);
    const first = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['a'], conversationId: 'budget' }));
    expect(first).toMatchObject({ result: { budgetExhausted: false, turnCount: 1 }, usage: { inputTokens: 10, outputTokens: 5 } });
    const second = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['b', 'c'], conversationId: 'budget' }));
    expect(second).toMatchObject({
      status: 'Succeeded',
      result: { conversationSucceeded: true, budgetExhausted: true, turnCount: 1, finalResponse: 'reply-2', conversationError: null },
    });
    const third = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['d'], conversationId: 'budget' }));
    expect(third).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, budgetExhausted: true, turnCount: 0 } });
    expect(fake.requests).toHaveLength(2);
    // A run without a conversation has a budget of its own.
    expect(await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['e'] }))).toMatchObject({ result: { budgetExhausted: false } });
  });

  it('live for a sliding Conversations:Ttl, then start over', async () => {
    const clock = new ManualClock(Date.now());
    const { fake, ai } = await countingModel();
    const t = await app({ ...ai, Conversations: { Ttl: '00:10:00' }, BundleExecution: { HandleTtl: '01:00:00' } }, { clock });
    const handle = await registerHandle(t.app);
    const run = async (message: string) => settled(t.app, handle, await startJob(t.app, handle, { userMessages: [message], conversationId: 'ttl' }));
    await run('m1');
    clock.advance(9 * MINUTE);
    await run('m2');
    expect(transcript(fake.requests[1]!.body).slice(1)).toEqual(['user:m1', 'assistant:reply-1', 'user:m2']);
    clock.advance(10 * MINUTE);
    await run('m3');
    expect(transcript(fake.requests[2]!.body).slice(1)).toEqual(['user:m3']);
  });
});

describe('conversation ownership', () => {
  let idp: DevIdp;
  beforeAll(async () => {
    idp = await startTestIdp();
  });
  afterAll(async () => idp.close());

  it('404 when another caller names a conversation it did not start; the owner keeps using it', async () => {
    const settings = merge(idpSettings(idp, (bundleSettings(join(base, 'owned')).AppConfig as { AI: Record<string, unknown> }).AI), {
      AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } },
    });
    const t = await buildTestApp({ environment: 'Production', settings });
    apps.push(t);
    const alice = bearer(await idp.mintToken({ sub: 'alice' }, { ttlSeconds: 3600 }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }, { ttlSeconds: 3600 }));
    const aliceHandle = await registerHandle(t.app, alice);
    const bobHandle = await registerHandle(t.app, bob);
    expect((await startRun(t.app, aliceHandle, { userMessages: ['mine'], conversationId: 'taken' }, alice)).statusCode).toBe(202);
    const refused = await startRun(t.app, bobHandle, { userMessages: ['me too'], conversationId: 'taken' }, bob);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().title).toBe('Not found');
    expect((await startRun(t.app, bobHandle, { userMessages: ['mine'], conversationId: 'bobs-own' }, bob)).statusCode).toBe(202);
    expect((await startRun(t.app, aliceHandle, { userMessages: ['again'], conversationId: 'taken' }, alice)).statusCode).toBe(202);
  });

  it('does not let a start refused at the active-run cap claim its conversation', async () => {
    const settings = merge(
      idpSettings(idp, (bundleSettings(join(base, 'capped'), { BundleExecution: { MaxActiveBundleRunsPerOwner: 1 } }).AppConfig as { AI: Record<string, unknown> }).AI),
      { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } },
    );
    const t = await buildTestApp({ environment: 'Production', settings });
    apps.push(t);
    const alice = bearer(await idp.mintToken({ sub: 'alice' }, { ttlSeconds: 3600 }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }, { ttlSeconds: 3600 }));
    const aliceHandle = await registerHandle(t.app, alice);
    const bobHandle = await registerHandle(t.app, bob);
    expect((await startRun(t.app, aliceHandle, { userMessages: ['hold'], stream: true }, alice)).statusCode).toBe(202);
    expect((await startRun(t.app, aliceHandle, { userMessages: ['over'], conversationId: 'contested' }, alice)).statusCode).toBe(429);
    expect((await startRun(t.app, bobHandle, { userMessages: ['mine'], conversationId: 'contested' }, bob)).statusCode).toBe(202);
  });
});
