// DESIGN §20 end to end with the official @a2a-js/sdk client against a listening service and real
// bearer tokens: the agent card of an uploaded bundle, a blocking send, a streamed send, a conversation
// that goes on through contextId, a cancel, ListTasks and SubscribeToTask, and a task read and followed
// through another instance on the same storage. A2A tasks are bundle runs (channel a2a): the bundle
// routes see them, with the envelope of the caller that started them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { eventually } from '../helpers/eventually.js';
import { bundleSettings, bundleZip, listen, poll, registerHandle } from './bundles-harness.js';
import { a2aClient, a2aSettings, answerOf, asTask, holdingScriptedModel, stateOf, textMessage } from './a2a-harness.js';

const AGENT = '---\nid: weather\nname: Weather\ndescription: Tells the weather.\nversion: 1.2.3\n---\nYou tell the weather.\n';
const SKILL = '---\nid: forecast\nname: Forecast\ndescription: Forecasts tomorrow.\n---\nForecast carefully.\n';

describe('an uploaded agent over A2A (official SDK client, two instances on one storage)', () => {
  let idp: DevIdp;
  let shared: TestStorage;
  let temp: string;
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  let ana: string;
  let bo: string;
  let handle: string;
  const model = holdingScriptedModel();

  beforeAll(async () => {
    idp = await startTestIdp();
    shared = await openSharedTestStorage();
    temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-'));
    let settings = merge(
      a2aSettings(bundleSettings(join(temp, 'staging'))),
      idpSettings(idp, {
        BundleExecution: { Envelopes: { BySubject: { ana: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } } } },
      }),
    );
    settings = merge(settings, { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } });
    const build = (instanceId: string): Promise<TestApp> => buildTestApp({ environment: 'Production', settings, deps: { storage: shared.storage, instanceId, chatModel: model } });
    a = await build('instance-a');
    b = await build('instance-b');
    baseA = await listen(a.app);
    baseB = await listen(b.app);
    ana = bearer(await idp.mintToken({ sub: 'ana', name: 'Ana' })).authorization;
    bo = bearer(await idp.mintToken({ sub: 'bo', name: 'Bo' })).authorization;
    handle = await registerHandle(a.app, { authorization: ana }, bundleZip({ 'AGENT.md': AGENT, 'skills/forecast/SKILL.md': SKILL }));
  });
  afterAll(async () => {
    model.release();
    await a.close();
    await b.close();
    await shared.dispose();
    await idp.close();
    await rm(temp, { recursive: true, force: true });
  });

  it('discovers the agent card with a bearer token: AGENT.md’s identity, its skills, one JSON-RPC 1.0 interface, Bearer auth', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const card = await client.getAgentCard();
    expect(card).toMatchObject({
      name: 'Weather',
      description: 'Tells the weather.',
      version: '1.2.3',
      supportedInterfaces: [{ url: `${baseA}/a2a/${handle}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true, pushNotifications: false },
    });
    expect(card.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description }))).toEqual([{ id: 'forecast', name: 'Forecast', description: 'Forecasts tomorrow.' }]);
    const scheme = card.securitySchemes.bearer?.scheme;
    expect(scheme?.$case).toBe('httpAuthSecurityScheme');
    expect(scheme?.$case === 'httpAuthSecurityScheme' ? scheme.value : undefined).toMatchObject({ scheme: 'Bearer', description: expect.stringContaining(idp.instance.replace(/\/+$/, '')) });
    // The wire form is A2A 1.0's JSON (what any client reads), not the SDK's objects.
    const raw = (await (await fetch(`${baseA}/a2a/${handle}/.well-known/agent-card.json`, { headers: { authorization: ana } })).json()) as Record<string, unknown>;
    expect(raw).toMatchObject({ securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } }, supportedInterfaces: [{ protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] });
  });

  it('answers the card only to the handle’s owner: no token is 401, another caller’s handle the same 404 as an unknown one', async () => {
    const card = (headers: Record<string, string>, h = handle) => fetch(`${baseA}/a2a/${h}/.well-known/agent-card.json`, { headers });
    expect((await card({})).status).toBe(401);
    const foreign = await card({ authorization: bo });
    const unknown = await card({ authorization: bo }, 'no-such-handle');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const strip = (body: Record<string, unknown>) => ({ ...body, instance: undefined, traceId: undefined });
    expect(strip((await foreign.json()) as Record<string, unknown>)).toEqual(strip((await unknown.json()) as Record<string, unknown>));
  });

  it('answers a blocking SendMessage with the completed task: the final answer as a text artifact, a bundle run on the bundle routes', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const task = asTask(await client.sendMessage(textMessage('hello')));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(answerOf(task)).toBe('You said: hello');
    expect(task.contextId).toMatch(/^[A-Za-z0-9_-]+$/);
    // The task is the run: pollable as a bundle run under the same handle, by the same caller.
    expect((await poll(a.app, handle, task.id, { authorization: ana })).json()).toMatchObject({ jobId: task.id, status: 'Succeeded', result: { finalResponse: 'You said: hello' } });
  });

  it('streams a SendStreamingMessage: the task first, WORKING, the answer artifact, then COMPLETED', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(textMessage('stream me'))) events.push(event);
    const kinds = events.map((event) => event.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.slice(-2)).toEqual(['artifactUpdate', 'statusUpdate']);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifact = events.at(-2)?.payload;
    const part = artifact?.$case === 'artifactUpdate' ? artifact.value.artifact?.parts[0]?.content : undefined;
    expect(part).toEqual({ $case: 'text', value: 'You said: stream me' });
  });

  it('goes on with a conversation through contextId: the agent is given the earlier turns', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const first = asTask(await client.sendMessage(textMessage('my name is Ana')));
    const before = model.requests.length;
    const second = asTask(await client.sendMessage(textMessage('what is my name?', { contextId: first.contextId })));
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
    const seen = model.requests.slice(before).at(-1)!.messages.filter((m) => m.role !== 'system').map((m) => `${m.role}:${m.content}`);
    expect(seen).toEqual(['user:my name is Ana', 'assistant:You said: my name is Ana', 'user:what is my name?']);
    // ListTasks filters by context, newest first.
    const listed = await client.listTasks({ tenant: '', contextId: first.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map((task) => task.id)).toEqual([second.id, first.id]);
  });

  it('cancels a running task: CANCELED over A2A, Failed with SPEC.md’s cancellation reason on the bundle routes', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const started = asTask(await client.sendMessage(textMessage('hold until cancelled', { returnImmediately: true })));
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(stateOf(started));
    await eventually(async () => (stateOf(await client.getTask({ tenant: '', id: started.id })) === 'TASK_STATE_WORKING' ? true : undefined));
    // Cancelled through the other instance: the run stops wherever it executes.
    const other = await a2aClient(baseB, handle, ana);
    const cancelled = await other.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(stateOf(cancelled)).toBe('TASK_STATE_CANCELED');
    expect((await poll(a.app, handle, started.id, { authorization: ana })).json()).toMatchObject({ status: 'Failed', error: 'The run was cancelled.' });
    await expect(other.cancelTask({ tenant: '', id: started.id, metadata: undefined })).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
  });

  it('reads and follows a task through another instance: GetTask, and SubscribeToTask until it completes', async () => {
    const client = await a2aClient(baseA, handle, ana);
    const started = asTask(await client.sendMessage(textMessage('hold then answer', { returnImmediately: true })));
    const other = await a2aClient(baseB, handle, ana);
    const read = await other.getTask({ tenant: '', id: started.id });
    expect(read.id).toBe(started.id);
    expect(read.contextId).toBe(started.contextId);
    await eventually(async () => (stateOf(await other.getTask({ tenant: '', id: started.id })) === 'TASK_STATE_WORKING' ? true : undefined));
    const events: StreamResponse[] = [];
    const following = (async () => {
      for await (const event of other.resubscribeTask({ tenant: '', id: started.id })) events.push(event);
    })();
    await eventually(async () => (events.length > 0 ? true : undefined));
    model.release();
    await following;
    expect(events[0]?.payload?.$case).toBe('task');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(await other.getTask({ tenant: '', id: started.id }))).toBe('You said: hold then answer');
  });

  it('keeps tasks to their owner: another caller’s GetTask is TaskNotFound, as for an unknown id', async () => {
    const mine = asTask(await (await a2aClient(baseA, handle, ana)).sendMessage(textMessage('mine')));
    const boHandle = await registerHandle(a.app, { authorization: bo });
    const theirs = await a2aClient(baseA, boHandle, bo);
    const foreign = await theirs.getTask({ tenant: '', id: mine.id }).catch((error: unknown) => error);
    const unknown = await theirs.getTask({ tenant: '', id: 'no-such-task' }).catch((error: unknown) => error);
    expect(String(foreign)).toBe(String(unknown));
    expect((foreign as Error).name).toBe('TaskNotFoundError');
  });
});
