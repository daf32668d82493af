// DESIGN §20 with §13: an A2A task whose run calls a tool under Supervised goes INPUT_REQUIRED, its
// status message carrying the call as a data part; a following SendMessage on that task with a data part
// decides it — by the owner where self-approval is on; where it is off the owner's decision is the
// protocol's error with §13's reason, and an approver decides through /api/approvals (on another
// instance) — and the task goes on to COMPLETED, whoever follows it and wherever.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { eventually } from '../helpers/eventually.js';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { bundleSettings, listen, registerHandle } from './bundles-harness.js';
import { a2aClient, a2aSettings, answerOf, asTask, decisionMessage, stateOf, textMessage, waitingOf } from './a2a-harness.js';

const APPROVER = 'Harness.Approvals.Decide';

interface Cluster {
  readonly idp: DevIdp;
  readonly shared: TestStorage;
  readonly temp: string;
  readonly apps: TestApp[];
  readonly bases: string[];
}

async function cluster(allowSelfApproval: boolean, instances: number): Promise<Cluster> {
  const idp = await startTestIdp();
  const shared = await openSharedTestStorage();
  const temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-approvals-'));
  let settings = merge(
    a2aSettings(bundleSettings(join(temp, 'staging'))),
    idpSettings(idp, {
      Approvals: { Enabled: true, AllowSelfApproval: allowSelfApproval },
      BundleExecution: { Envelopes: { BySubject: { sam: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Supervised', AutoApproveUpTo: 'None' } } } },
      RateLimits: Object.fromEntries(['workflows-read', 'workflows-write'].map((p) => [p, { PermitsPerMinute: 100_000 }])),
    }),
  );
  settings = merge(settings, { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } });
  const apps: TestApp[] = [];
  const bases: string[] = [];
  for (let i = 0; i < instances; i += 1) {
    const app = await buildTestApp({ environment: 'Production', settings, deps: { storage: shared.storage, instanceId: `instance-${i}` } });
    apps.push(app);
    bases.push(await listen(app.app));
  }
  return { idp, shared, temp, apps, bases };
}

async function dispose(c: Cluster): Promise<void> {
  for (const app of c.apps) await app.close();
  await c.shared.dispose();
  await c.idp.close();
  await rm(c.temp, { recursive: true, force: true });
}

describe('a supervised A2A task, self-approval on', () => {
  let c: Cluster;
  let sam: string;
  let handle: string;
  beforeAll(async () => {
    c = await cluster(true, 1);
    sam = bearer(await c.idp.mintToken({ sub: 'sam', name: 'Sam' })).authorization;
    handle = await registerHandle(c.apps[0]!.app, { authorization: sam });
  });
  afterAll(() => dispose(c));

  it('goes INPUT_REQUIRED with the call as a data part, and COMPLETED once its owner approves on the task', async () => {
    const client = await a2aClient(c.bases[0]!, handle, sam);
    const waiting = asTask(await client.sendMessage(textMessage('call clock now')));
    expect(stateOf(waiting)).toBe('TASK_STATE_INPUT_REQUIRED');
    const call = waitingOf(waiting);
    expect(call).toEqual({ approvalId: expect.any(String), tool: 'clock', operation: 'now', arguments: '{}', expiresAt: expect.any(String) });
    // The approval is §13's: the same one /api/approvals shows its owner.
    const shown = await c.apps[0]!.app.inject({ method: 'GET', url: `/api/approvals/${call.approvalId}`, headers: { authorization: sam } });
    expect(shown.json()).toMatchObject({ kind: 'ToolCall', runKind: 'bundle', jobId: waiting.id, handle, tool: 'clock', status: 'Pending' });
    const done = asTask(await client.sendMessage(decisionMessage(waiting.id, call.approvalId, 'Approve', 'fine')));
    expect(done.id).toBe(waiting.id);
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(answerOf(done)).toMatch(/^Tool results:\n- clock: /);
    expect(answerOf(done)).not.toContain('rejected');
  });

  it('streams the wait and the continuation: INPUT_REQUIRED ends the first stream, a streamed decision follows the task to COMPLETED', async () => {
    const client = await a2aClient(c.bases[0]!, handle, sam);
    const first: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(textMessage('call calculator evaluate {"expression": "6*7"}'))) first.push(event);
    const parked = first.at(-1)?.payload;
    expect(parked?.$case === 'statusUpdate' ? parked.value.status?.state : undefined).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const taskId = first[0]?.payload?.$case === 'task' ? first[0].payload.value.id : '';
    const task = await client.getTask({ tenant: '', id: taskId });
    const call = waitingOf(task);
    expect(call).toMatchObject({ tool: 'calculator', operation: 'evaluate', arguments: '{"expression":"6*7"}' });
    const second: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(decisionMessage(taskId, call.approvalId, 'Reject'))) second.push(event);
    expect(second[0]?.payload?.$case).toBe('task');
    const states = second.flatMap((event) => (event.payload?.$case === 'statusUpdate' ? [event.payload.value.status?.state] : []));
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    // Rejected: the model was told so, and the conversation went on.
    expect(answerOf(await client.getTask({ tenant: '', id: taskId }))).toBe('Tool results:\n- calculator: Tool call rejected by an approver.');
  });

  it('refuses a decision for an approval the task does not wait on, and a second different decision', async () => {
    const client = await a2aClient(c.bases[0]!, handle, sam);
    const waiting = asTask(await client.sendMessage(textMessage('call clock now')));
    const call = waitingOf(waiting);
    await expect(client.sendMessage(decisionMessage(waiting.id, 'not-an-approval', 'Approve'))).rejects.toMatchObject({ name: 'RequestMalformedError' });
    expect(stateOf(asTask(await client.sendMessage(decisionMessage(waiting.id, call.approvalId, 'Approve'))))).toBe('TASK_STATE_COMPLETED');
    // §13: another decision once decided is a conflict; over A2A the protocol's error with that reason.
    await expect(client.sendMessage(decisionMessage(waiting.id, call.approvalId, 'Reject'))).rejects.toMatchObject({ name: 'UnsupportedOperationError', message: expect.stringContaining('approved') });
  });
});

describe('a supervised A2A task, self-approval off (two instances)', () => {
  let c: Cluster;
  let sam: string;
  let vera: string;
  let handle: string;
  beforeAll(async () => {
    c = await cluster(false, 2);
    sam = bearer(await c.idp.mintToken({ sub: 'sam', name: 'Sam' })).authorization;
    vera = bearer(await c.idp.mintToken({ sub: 'vera', name: 'Vera', roles: [APPROVER] })).authorization;
    handle = await registerHandle(c.apps[0]!.app, { authorization: sam });
  });
  afterAll(() => dispose(c));

  it('refuses the owner’s decision with §13’s reason; an approver decides through /api/approvals and the task completes', async () => {
    const client = await a2aClient(c.bases[0]!, handle, sam);
    const waiting = asTask(await client.sendMessage(textMessage('call clock now')));
    const call = waitingOf(waiting);
    const refused = await client.sendMessage(decisionMessage(waiting.id, call.approvalId, 'Approve')).catch((error: unknown) => error as Error);
    expect(refused).toMatchObject({ name: 'UnsupportedOperationError', message: expect.stringContaining('Separation of duties') });
    // Still waiting: the refusal decided nothing.
    expect(stateOf(await client.getTask({ tenant: '', id: waiting.id }))).toBe('TASK_STATE_INPUT_REQUIRED');
    // An approver decides on the other instance; the owner reads the task there too.
    const other = await a2aClient(c.bases[1]!, handle, sam);
    const decided = await c.apps[1]!.app.inject({ method: 'POST', url: `/api/approvals/${call.approvalId}/decision`, headers: { authorization: vera }, payload: { decision: 'Approve' } });
    expect(decided.statusCode).toBe(200);
    await eventually(async () => (stateOf(await other.getTask({ tenant: '', id: waiting.id })) === 'TASK_STATE_COMPLETED' ? true : undefined));
    const done = await other.getTask({ tenant: '', id: waiting.id });
    expect(stateOf(done)).toBe('TASK_STATE_COMPLETED');
    expect(answerOf(done)).toMatch(/^Tool results:\n- clock: /);
  });
});
