// DESIGN §17, issue 22: lanes dispatch fairly across owners. Alice floods the bundle lane (two host
// slots) with slow runs; Bob's one ordinary run starts on the next free slot — one slot's turn — ahead
// of every run Alice queued before it, and finishes while hers still wait.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import type { ChatModel, ChatRequest } from '../../src/models/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, gatedModel, poll, registerHandle, settled, startJob } from './bundles-harness.js';

let idp: DevIdp;
let base: string;
let t: TestApp;
const held = gatedModel();
/** How many of Alice's model calls had arrived when each of Bob's did. */
const heldWhenAnswered: number[] = [];
/** Alice's prompts ("slow …") wait for the test; everybody else's are answered at once. */
const model: ChatModel = {
  ...held,
  stream: (request: ChatRequest) => {
    if (lastUser(request).startsWith('slow')) return held.stream(request);
    heldWhenAnswered.push(held.requests.length);
    return answered(request);
  },
};

function lastUser(request: ChatRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

async function* answered(request: ChatRequest) {
  yield { type: 'text-delta' as const, delta: `You said: ${lastUser(request)}` };
  yield { type: 'finish' as const, finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } };
}

beforeAll(async () => {
  idp = await startTestIdp();
  base = await mkdtemp(join(tmpdir(), 'portcullis-fair-'));
  const bundles = bundleSettings(join(base, 'staging'), {
    BundleExecution: { MaxConcurrentDispatchedBundleRuns: 2, MaxActiveBundleRunsPerOwner: 10 },
  }) as { AppConfig: { AI: Record<string, unknown> } };
  t = await buildTestApp({ environment: 'Production', settings: idpSettings(idp, merge(bundles.AppConfig.AI, { BundleExecution: { Auth: { AllowAnonymous: false } } })), deps: { chatModel: model } });
});

afterAll(async () => {
  for (let i = 0; i < 10; i += 1) held.release(i);
  await t.close();
  await idp.close();
  await rm(base, { recursive: true, force: true });
});

describe('a lane shared by a flooding owner and an ordinary one', () => {
  it('starts the ordinary owner’s run on the next free slot, ahead of the flooder’s queued runs', async () => {
    const alice = bearer(await idp.mintToken({ sub: 'alice' }));
    const bob = bearer(await idp.mintToken({ sub: 'bob' }));
    const aliceHandle = await registerHandle(t.app, alice);
    const bobHandle = await registerHandle(t.app, bob);
    const flood: string[] = [];
    for (let i = 0; i < 6; i += 1) flood.push(await startJob(t.app, aliceHandle, { userMessages: [`slow ${i}`] }, alice));
    await held.arrived(2);
    const ordinary = await startJob(t.app, bobHandle, { userMessages: ['quick'] }, bob);
    expect((await poll(t.app, bobHandle, ordinary, bob)).json()).toMatchObject({ status: 'Queued' });
    // One of Alice's two executing runs ends: the slot goes to Bob, not to Alice's four older queued runs.
    held.release(0);
    expect(await settled(t.app, bobHandle, ordinary, bob)).toMatchObject({ status: 'Succeeded', result: { finalResponse: 'You said: quick' } });
    // Bob's model call came while only Alice's first two runs had started.
    expect(heldWhenAnswered).toEqual([2]);
    await held.arrived(3);
    const aliceStatuses = await Promise.all(flood.map(async (jobId) => (await poll(t.app, aliceHandle, jobId, alice)).json<{ status: string }>().status));
    // Of her first two runs, the one whose model call was released first has finished (which of the two
    // called first is the dispatcher's race); her third started after Bob's; the rest still wait.
    expect(aliceStatuses.slice(0, 2).sort()).toEqual(['Running', 'Succeeded']);
    expect(aliceStatuses.slice(2)).toEqual(['Running', 'Queued', 'Queued', 'Queued']);
  });
});
