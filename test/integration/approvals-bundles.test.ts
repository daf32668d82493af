// DESIGN §13 on bundle runs, with real tokens from the loopback identity provider: a tool call under
// Supervised parks the run (still Running to its caller, its slot given back, `pendingApprovals` in the
// poll body); an approver's decision resumes it — on another instance too — and the call runs; a
// rejection or an expiry tells the model `Tool call rejected by an approver.` and the conversation goes
// on; AGENT.md `require-approval:` makes calls ask even under Autonomous; a parked run outlives the
// instance it parked on; a streamed run ends its stream with the AG-UI interrupt outcome.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { eventually } from '../helpers/eventually.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { bundleSettings, bundleZip, listen, poll, readVerifiedStream, registerHandle, settled, startJob, startRun } from './bundles-harness.js';

type Headers = Record<string, string>;
const APPROVER = 'Harness.Approvals.Decide';


/** A bundle run poll body, as these tests read it. */
interface Polled {
  readonly status: string;
  readonly pendingApprovals?: ReadonlyArray<{ readonly approvalId: string; readonly toolCallId: string; readonly tool: string; readonly operation: string; readonly expiresAt: string | null }>;
  readonly result?: { readonly finalResponse: string; readonly conversationSucceeded: boolean };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

function firstWaiting(body: Polled): string {
  const waiting = body.pendingApprovals?.[0];
  if (waiting === undefined) throw new Error('the run waits for nothing');
  return waiting.approvalId;
}

describe('bundle runs that wait for a person (two instances on one storage)', () => {
  let idp: DevIdp;
  let shared: TestStorage;
  let temp: string;
  let a: TestApp;
  let b: TestApp;
  let sam: Headers;
  let vera: Headers;
  let rebuild: Record<string, unknown>;

  beforeAll(async () => {
    idp = await startTestIdp();
    shared = await openSharedTestStorage();
    temp = await mkdtemp(join(tmpdir(), 'portcullis-approvals-bundles-'));
    let settings = merge(
      bundleSettings(join(temp, 'staging')),
      idpSettings(idp, {
        Approvals: { Enabled: true, AllowSelfApproval: false, DefaultTimeout: '00:00:02' },
        BundleExecution: {
          // One slot: a parked run must give it back, or nothing else would run.
          MaxConcurrentDispatchedBundleRuns: 1,
          Envelopes: {
            BySubject: {
              sam: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Supervised', AutoApproveUpTo: 'None' },
              ada: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' },
            },
          },
        },
        RateLimits: Object.fromEntries(['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete', 'workflows-read', 'workflows-write'].map((p) => [p, { PermitsPerMinute: 100_000 }])),
      }),
    );
    // Real tokens only: the harness's anonymous default is switched off.
    settings = merge(settings, { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } });
    const build = (instanceId: string): Promise<TestApp> => buildTestApp({ environment: 'Production', settings, deps: { storage: shared.storage, instanceId } });
    rebuild = settings;
    a = await build('instance-a');
    b = await build('instance-b');
    sam = bearer(await idp.mintToken({ sub: 'sam', name: 'Sam' }));
    vera = bearer(await idp.mintToken({ sub: 'vera', name: 'Vera', roles: [APPROVER] }));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await shared.dispose();
    await idp.close();
    await rm(temp, { recursive: true, force: true });
  });

  const decide = (app: TestApp, id: string, headers: Headers, decision: 'Approve' | 'Reject') =>
    app.app.inject({ method: 'POST', url: `/api/approvals/${id}/decision`, headers, payload: { decision } });

  async function parkedRun(app: TestApp, handle: string, messages: string[]): Promise<{ jobId: string; body: Polled }> {
    const jobId = await startJob(app.app, handle, { userMessages: messages }, sam);
    const body = await eventually(async () => {
      const current = (await poll(app.app, handle, jobId, sam)).json<Polled>();
      return current.pendingApprovals === undefined ? undefined : current;
    });
    return { jobId, body };
  }

  it('parks the run on a supervised call, gives its slot back, and resumes it on the instance the approval reaches', async () => {
    const handle = await registerHandle(a.app, sam);
    const { jobId, body } = await parkedRun(a, handle, ['call clock now', 'thanks']);
    expect(body.status).toBe('Running');
    expect(body.pendingApprovals).toEqual([expect.objectContaining({ tool: 'clock', operation: 'now', toolCallId: expect.any(String), expiresAt: expect.any(String) })]);
    // The only slot is free while it waits: another caller's run goes through.
    const ada = bearer(await idp.mintToken({ sub: 'ada' }));
    const other = await registerHandle(a.app, ada);
    expect(await settled(a.app, other, await startJob(a.app, other, { userMessages: ['call clock now'] }, ada), ada)).toMatchObject({ status: 'Succeeded' });
    const approvalId = firstWaiting(body);
    const shown = (await b.app.inject({ method: 'GET', url: `/api/approvals/${approvalId}`, headers: vera })).json<Body>();
    expect(shown).toMatchObject({ kind: 'ToolCall', runKind: 'bundle', jobId, handle, tool: 'clock', operation: 'now', arguments: '{}', reason: 'Supervised ceiling', requestedBy: 'Sam' });
    expect((await decide(b, approvalId, sam, 'Approve')).statusCode).toBe(403);
    expect((await decide(b, approvalId, vera, 'Approve')).statusCode).toBe(200);
    const done = await settled(b.app, handle, jobId, sam);
    expect(done).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, turnCount: 2, totalToolInvocations: 1 } });
    expect((done as Body).pendingApprovals).toBeUndefined();
  });

  it('tells the model the call was rejected, and the conversation goes on', async () => {
    const handle = await registerHandle(a.app, sam);
    const { jobId, body } = await parkedRun(a, handle, ['call calculator evaluate {"expression": "1+1"}']);
    expect((await decide(a, firstWaiting(body), vera, 'Reject')).json()).toMatchObject({ status: 'Rejected' });
    const done = (await settled(a.app, handle, jobId, sam)) as Body;
    expect(done).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, turnCount: 1, totalToolInvocations: 1 } });
    // The Scripted model answers with the tool results it was given: the rejection, not a result.
    expect(done.result?.finalResponse).toBe('Tool results:\n- calculator: Tool call rejected by an approver.');
  });

  it('treats an approval nobody decided before DefaultTimeout as a rejection', async () => {
    const handle = await registerHandle(a.app, sam);
    const { jobId, body } = await parkedRun(a, handle, ['call clock now']);
    const approvalId = firstWaiting(body);
    const done = await eventually(async () => {
      const current = (await poll(a.app, handle, jobId, sam)).json<Polled>();
      return current.status === 'Succeeded' ? current : undefined;
    });
    expect(done.result?.finalResponse).toBe('Tool results:\n- clock: Tool call rejected by an approver.');
    expect((await a.app.inject({ method: 'GET', url: `/api/approvals/${approvalId}`, headers: vera })).json()).toMatchObject({ status: 'Expired' });
  });

  it('makes calls a bundle names in require-approval ask even under Autonomous', async () => {
    const ada = bearer(await idp.mintToken({ sub: 'ada', name: 'Ada' }));
    const zip = bundleZip({ 'AGENT.md': '---\nid: careful\nname: Careful\ndescription: Asks first.\nrequire-approval: [calculator]\n---\nYou are careful.\n' });
    const handle = await registerHandle(a.app, ada, zip);
    const clock = await startJob(a.app, handle, { userMessages: ['call clock now'] }, ada);
    expect(await settled(a.app, handle, clock, ada)).toMatchObject({ status: 'Succeeded' });
    const jobId = await startJob(a.app, handle, { userMessages: ['call calculator evaluate {"expression": "2*3"}'] }, ada);
    const body = await eventually(async () => {
      const current = (await poll(a.app, handle, jobId, ada)).json<Polled>();
      return current.pendingApprovals === undefined ? undefined : current;
    });
    const approval = (await a.app.inject({ method: 'GET', url: `/api/approvals/${firstWaiting(body)}`, headers: vera })).json<Body>();
    expect(approval).toMatchObject({ tool: 'calculator', reason: 'bundle require-approval' });
    await decide(a, approval.approvalId as string, vera, 'Approve');
    expect(await settled(a.app, handle, jobId, ada)).toMatchObject({ status: 'Succeeded' });
  });

  it('ends a streamed run’s stream with the AG-UI interrupt outcome after the call’s TOOL_CALL_END', async () => {
    const base = await listen(a.app);
    const handle = await registerHandle(a.app, sam);
    const started = await startRun(a.app, handle, { userMessages: ['call clock now'], stream: true }, sam);
    const { streamUrl } = started.json<{ streamUrl: string }>();
    const frames = await readVerifiedStream(`${base}${streamUrl}`, sam);
    const types = frames.map((frame) => frame.type);
    expect(types.slice(-2)).toEqual(['TOOL_CALL_END', 'RUN_FINISHED']);
    const finished = frames.at(-1) as Body;
    expect(finished.outcome).toMatchObject({ type: 'interrupt', interrupts: [{ reason: 'tool_approval', toolCallId: expect.any(String), id: expect.any(String) }] });
  });

  it('keeps a parked run through the shutdown of the instance it parked on; the decision resumes it on another', async () => {
    const handle = await registerHandle(a.app, sam);
    const { jobId, body } = await parkedRun(a, handle, ['call clock now']);
    await a.close();
    expect((await decide(b, firstWaiting(body), vera, 'Approve')).statusCode).toBe(200);
    expect(await settled(b.app, handle, jobId, sam)).toMatchObject({ status: 'Succeeded', result: { totalToolInvocations: 1 } });
    a = await buildTestApp({ environment: 'Production', settings: rebuild, deps: { storage: shared.storage, instanceId: 'instance-a2' } });
  });
});
