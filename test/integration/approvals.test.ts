// DESIGN §13 on workflows, with real tokens from the loopback identity provider (the requester and the
// approver are different subjects): a ToolUse step under Supervised waits for a person; the approval
// resource and its routes; approver roles and per-gate roles; self-approval off (403 for the owner,
// 200 for an approver); idempotent decisions; typed decisions against responseSchema; expiry as
// rejection; one escalation; AutoApproveUpTo; the audit events; and SPEC.md's default with approvals off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { eventually } from '../helpers/eventually.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { chain, gateStep, isFinal, poll, pollUntil, start, statusIs, submit, toolStep } from './workflows-harness.js';

const APPROVER = 'Harness.Approvals.Decide';
const FAST = Object.fromEntries(['workflows-write', 'workflows-read', 'tools-invoke'].map((p) => [p, { PermitsPerMinute: 100_000 }]));

type Headers = Record<string, string>;

function approvalsOf(log: ReturnType<typeof captureLog>, event: string): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === event);
}


describe('supervised workflow steps and the approval contract (approvals on, self-approval off)', () => {
  let idp: DevIdp;
  let t: TestApp;
  const log = captureLog();
  let sam: Headers; // requester, Supervised
  let vera: Headers; // approver role
  let fin: Headers; // Finance (a gate's own role)
  let bob: Headers; // nobody
  let boss: Headers; // escalation role
  let auto: Headers; // Supervised with AutoApproveUpTo Trivial

  beforeAll(async () => {
    idp = await startTestIdp();
    t = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: null, logger: createLogger({ level: 'info', destination: log.destination }) },
      settings: idpSettings(idp, {
        Approvals: { Enabled: true, AllowSelfApproval: false, EscalateAfter: '00:00:01', EscalationRoles: ['Boss'] },
        BundleExecution: {
          Envelopes: {
            BySubject: {
              sam: { AllowedTools: ['clock', 'json'], AutonomyCeiling: 'Supervised' },
              auto: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised', AutoApproveUpTo: 'Trivial' },
            },
          },
          Auth: { AnonymousRoles: [] },
        },
        DirectToolInvocation: { Enabled: true },
        RateLimits: FAST,
      }),
    });
    sam = bearer(await idp.mintToken({ sub: 'sam', name: 'Sam', roles: ['Harness.Tools.Invoke'] }));
    vera = bearer(await idp.mintToken({ sub: 'vera', name: 'Vera', roles: [APPROVER] }));
    fin = bearer(await idp.mintToken({ sub: 'fin', preferred_username: 'fin@example.com', roles: ['Finance'] }));
    bob = bearer(await idp.mintToken({ sub: 'bob' }));
    boss = bearer(await idp.mintToken({ sub: 'boss', roles: ['Boss'] }));
    auto = bearer(await idp.mintToken({ sub: 'auto' }));
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  it('says nothing about the switch on the list while approvals are on', async () => {
    const listed = await get('/api/approvals', sam);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['portcullis-notice']).toBeUndefined();
  });
  const decide = (id: string, headers: Headers, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/approvals/${encodeURIComponent(id)}/decision`, headers, payload: body });

  it('parks a supervised ToolUse step until an approver (not the owner) approves; the tool then runs', async () => {
    const id = await submit(t.app, chain('supervised', toolStep('now')), sam);
    const { statusUrl, jobId } = await start(t.app, id, undefined, sam);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), sam);
    expect(blocked.steps[0]).toMatchObject({ name: 'now', status: 'Waiting' });
    const approvalId = blocked.pendingApprovals[0].approvalId as string;

    const mine = (await get('/api/approvals', sam)).json();
    expect(mine.approvals).toEqual([
      expect.objectContaining({
        approvalId,
        kind: 'ToolCall',
        status: 'Pending',
        runKind: 'workflow',
        jobId,
        workflowId: id,
        stepName: 'now',
        tool: 'clock',
        operation: 'now',
        arguments: '{}',
        riskTier: 'Trivial',
        reason: 'Supervised ceiling',
        requestedBy: 'Sam',
        escalated: false,
      }),
    ]);
    expect(mine.approvals[0].expiresAt).not.toBeNull();
    // Routed to the approver role; nobody else sees it, exactly as an unknown id.
    const routed = (await get('/api/approvals?scope=approver', vera)).json();
    expect(routed.approvals.map((a: { approvalId: string }) => a.approvalId)).toContain(approvalId);
    expect((await get(`/api/approvals/${approvalId}`, vera)).statusCode).toBe(200);
    const foreign = await get(`/api/approvals/${approvalId}`, bob);
    const unknown = await get('/api/approvals/no-such-approval', bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body.replace(/"instance":"[^"]*"|"traceId":"[^"]*"/g, '')).toBe(unknown.body.replace(/"instance":"[^"]*"|"traceId":"[^"]*"/g, ''));
    expect((await get('/api/approvals?scope=approver', bob)).json().approvals).toEqual([]);
    expect((await decide(approvalId, bob, { decision: 'Approve' })).statusCode).toBe(404);

    // Separation of duties: the owner may see it but not decide it.
    const self = await decide(approvalId, sam, { decision: 'Approve' });
    expect(self.statusCode).toBe(403);
    expect(self.json().detail).toMatch(/Separation of duties/);
    const old = await t.app.inject({ method: 'POST', url: `${statusUrl}/approvals/${approvalId}`, headers: sam, payload: { decision: 'Approve' } });
    expect(old.statusCode).toBe(403);

    const approved = await decide(approvalId, vera, { decision: 'Approve', comment: 'fine' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ approvalId, status: 'Approved', decision: { decision: 'Approve', comment: 'fine', decidedBy: 'Vera' } });
    // Idempotent: the same decision again answers as it stands; a different one is a conflict.
    expect((await decide(approvalId, vera, { decision: 'Approve' })).statusCode).toBe(200);
    expect((await decide(approvalId, vera, { decision: 'Reject' })).statusCode).toBe(409);

    const done = await pollUntil(t.app, statusUrl, isFinal, sam);
    expect(done.status).toBe('Succeeded');
    expect(done.steps[0].status).toBe('Succeeded');
    expect(typeof done.steps[0].output).toBe('object');

    const requested = approvalsOf(log, 'approval.requested').find((line) => line['approvalId'] === approvalId);
    expect(requested).toMatchObject({ kind: 'ToolCall', runKind: 'workflow', jobId, owner: 'sub:sam', tool: 'clock', reason: 'Supervised ceiling', routedTo: [APPROVER] });
    const decided = approvalsOf(log, 'approval.decided').find((line) => line['approvalId'] === approvalId);
    expect(decided).toMatchObject({ by: 'sub:vera', decision: 'Approve', owner: 'sub:sam' });
    expect(decided!['waitedMs']).toBeGreaterThanOrEqual(0);
    const call = approvalsOf(log, 'tool.call.decided').filter((line) => line['owner'] === 'sub:sam' && line['surface'] === 'workflow');
    expect(call.at(-1)).toMatchObject({ verdict: 'allowed', tool: 'clock', denial: null });
    expect(call.at(-1)!['reason']).toMatch(/approved by Vera/);
    const metrics = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    expect(metrics.count('portcullis_approval_wait_seconds', { kind: 'ToolCall', outcome: 'approved' })).toBe(1);
  });

  it('counts what waits for a person in portcullis_approvals_pending (as the sweep last counted)', async () => {
    const id = await submit(t.app, chain('counted', gateStep('count', 'Count me?')), sam);
    const { statusUrl } = await start(t.app, id, undefined, sam);
    await pollUntil(t.app, statusUrl, statusIs('Blocked'), sam);
    const pending = await eventually(async () => {
      const metrics = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
      const value = metrics.value('portcullis_approvals_pending', { kind: 'HumanGate' });
      return value >= 1 ? value : undefined;
    });
    expect(pending).toBeGreaterThanOrEqual(1);
    await t.app.inject({ method: 'DELETE', url: statusUrl, headers: sam });
  });

  it('fails the step with the rejection text when an approver rejects, and audits the call as denied (approval)', async () => {
    const id = await submit(t.app, chain('rejected', toolStep('later')), sam);
    const { statusUrl } = await start(t.app, id, undefined, sam);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), sam);
    const approvalId = blocked.pendingApprovals[0].approvalId as string;
    expect((await decide(approvalId, vera, { decision: 'Reject', comment: 'no' })).json()).toMatchObject({ status: 'Rejected' });
    const done = await pollUntil(t.app, statusUrl, isFinal, sam);
    expect(done).toMatchObject({ status: 'Failed', steps: [{ status: 'Failed', error: 'Tool call rejected by an approver.' }] });
    const call = approvalsOf(log, 'tool.call.decided').filter((line) => line['surface'] === 'workflow' && line['owner'] === 'sub:sam');
    expect(call.at(-1)).toMatchObject({ verdict: 'denied', denial: 'approval' });
    const metrics = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    expect(Number(metrics.sample('portcullis_tool_calls_total', { tool: 'clock', surface: 'workflow', outcome: 'denied', rule: 'approval' })?.value)).toBe(1);
  });

  it('runs a tool at or below AutoApproveUpTo without asking', async () => {
    const id = await submit(t.app, chain('auto', toolStep('now')), auto);
    const done = await pollUntil(t.app, (await start(t.app, id, undefined, auto)).statusUrl, isFinal, auto);
    expect(done.status).toBe('Succeeded');
    expect((await get('/api/approvals?status=Approved', auto)).json().approvals).toEqual([]);
  });

  it('keeps direct invocation under Supervised a 403: a synchronous call cannot wait for a person', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/tools/clock/invoke', headers: sam, payload: { operation: 'now', parameters: {} } });
    expect(res.statusCode).toBe(403);
    const call = approvalsOf(log, 'tool.call.decided').filter((line) => line['surface'] === 'direct' && line['owner'] === 'sub:sam');
    expect(call.at(-1)).toMatchObject({ verdict: 'denied', denial: 'approval' });
  });

  it('routes a gate to its own approverRoles and takes a typed decision valid against its responseSchema', async () => {
    const typed = {
      name: 'typed',
      steps: [
        {
          name: 'ticket',
          type: 'HumanGate',
          configuration: {
            type: 'HumanGate',
            message: 'Which ticket?',
            approverRoles: ['Finance'],
            responseSchema: { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string', minLength: 3 } }, additionalProperties: false },
          },
        },
      ],
      edges: [],
    };
    const id = await submit(t.app, typed, sam);
    const { statusUrl } = await start(t.app, id, undefined, sam);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), sam);
    const approvalId = blocked.pendingApprovals[0].approvalId as string;
    // Not routed to the general approver role: Vera sees nothing.
    expect((await get(`/api/approvals/${approvalId}`, vera)).statusCode).toBe(404);
    const shown = (await get(`/api/approvals/${approvalId}`, fin)).json();
    expect(shown).toMatchObject({ kind: 'HumanGate', reason: 'HumanGate', message: 'Which ticket?', responseSchema: typed.steps[0]!.configuration.responseSchema });
    const missing = await decide(approvalId, fin, { decision: 'Approve' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/payload is required/);
    const wrong = await decide(approvalId, fin, { decision: 'Approve', payload: { ticket: 'x', extra: 1 } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().violations.length).toBeGreaterThanOrEqual(2);
    const ok = await decide(approvalId, fin, { decision: 'Approve', payload: { ticket: 'OPS-7' } });
    expect(ok.json()).toMatchObject({ status: 'Approved', decision: { decidedBy: 'fin@example.com', payload: { ticket: 'OPS-7' } } });
    const done = await pollUntil(t.app, statusUrl, isFinal, sam);
    expect(done.steps[0]).toMatchObject({ status: 'Succeeded', output: { decision: 'Approve', comment: null, payload: { ticket: 'OPS-7' } } });
  });

  it('refuses a definition whose responseSchema is unusable, with a diagnostic', async () => {
    for (const responseSchema of [{ type: 'string', pattern: '^(a+)+$' }, { type: 'nonsense-type' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/workflows',
        headers: sam,
        payload: { name: 'bad-schema', steps: [{ name: 'g', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'm', responseSchema } }], edges: [] },
      });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().diagnostics)).toMatch(/responseSchema/);
    }
  });

  it('escalates an approval once EscalateAfter has passed, and expires one past its deadline as a rejection', async () => {
    const id = await submit(t.app, chain('slow', gateStep('wait', 'Wait?', '00:00:03')), sam);
    const { statusUrl } = await start(t.app, id, undefined, sam);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), sam);
    const approvalId = blocked.pendingApprovals[0].approvalId as string;
    expect((await get(`/api/approvals/${approvalId}`, boss)).statusCode).toBe(404);
    const escalated = await eventually(async () => {
      const res = await get(`/api/approvals/${approvalId}`, boss);
      return res.statusCode === 200 ? res.json() : undefined;
    });
    expect(escalated).toMatchObject({ escalated: true, status: 'Pending' });
    expect(approvalsOf(log, 'approval.escalated').find((line) => line['approvalId'] === approvalId)).toMatchObject({ roles: ['Boss'] });
    const done = await eventually(async (): Promise<{ status: string } | undefined> => {
      const run = (await poll(t.app, statusUrl, sam)) as { status: string };
      return isFinal(run) ? run : undefined;
    });
    expect(done.status).toBe('Failed');
    expect((await get(`/api/approvals/${approvalId}`, sam)).json()).toMatchObject({ status: 'Expired' });
    expect((await decide(approvalId, boss, { decision: 'Approve' })).statusCode).toBe(409);
    expect(approvalsOf(log, 'approval.expired').filter((line) => line['approvalId'] === approvalId)).toHaveLength(1);
  });
});

describe('approvals off (SPEC.md’s default)', () => {
  let idp: DevIdp;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startTestIdp();
    t = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: null },
      settings: idpSettings(idp, {
        BundleExecution: { Envelopes: { BySubject: { sam: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised' }, alice: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } } },
        RateLimits: FAST,
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('refuses Supervised tool calls like Restricted, routes nothing, and lets the owner decide gates through either route', async () => {
    const sam = bearer(await idp.mintToken({ sub: 'sam' }));
    const vera = bearer(await idp.mintToken({ sub: 'vera', roles: [APPROVER] }));
    const alice = bearer(await idp.mintToken({ sub: 'alice', name: 'Alice' }));
    const id = await submit(t.app, chain('refused', toolStep('now')), sam);
    const run = await pollUntil(t.app, (await start(t.app, id, undefined, sam)).statusUrl, isFinal, sam);
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'Tool call denied by policy.' });

    const gated = await submit(t.app, chain('gated', gateStep('gate')), alice);
    const { statusUrl } = await start(t.app, gated, undefined, alice);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), alice);
    const approvalId = blocked.pendingApprovals[0].approvalId as string;
    const routed = await t.app.inject({ method: 'GET', url: '/api/approvals?scope=approver', headers: vera });
    expect(routed.json()).toEqual({ approvals: [], nextCursor: null });
    // The body is the contract's; a header says why it is empty.
    expect(routed.headers['portcullis-notice']).toBe(
      'Approvals are off on this host (AppConfig:AI:Approvals:Enabled is false): tool calls never wait for a person, so only workflow HumanGate approvals are listed.',
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/approvals/${approvalId}`, headers: vera })).statusCode).toBe(404);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/approvals', headers: alice })).json();
    expect(listed.approvals).toEqual([expect.objectContaining({ approvalId, kind: 'HumanGate', expiresAt: null, requestedBy: 'Alice' })]);
    const res = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/decision`, headers: alice, payload: { decision: 'Approve' } });
    expect(res.json()).toMatchObject({ status: 'Approved', decision: { decidedBy: 'Alice' } });
    expect((await pollUntil(t.app, statusUrl, isFinal, alice)).status).toBe('Succeeded');
  });
});
