// DESIGN §18 on the surfaces policies.test.ts leaves to this file, against the real service with real
// tokens from the loopback identity provider: bundle runs driven by the Scripted chat model (a policy
// deny tells the model `Tool call denied by policy.`; a policy ask parks the run for a person, the
// approval naming the policy and the set's version; `context.bundleId` is the AGENT.md id), the MCP
// gateway with the official MCP client (a deny is an `isError` result with the text direct invocation
// gives), and eval runs, which cannot wait for a person (an ask is a denial, `denial: "approval"`).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_DENIED_CONTENT } from '../../src/agent/loop/tool-result-content.js';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { INVOKE_FORBIDDEN_DETAIL } from '../../src/platform/access/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { eventually } from '../helpers/eventually.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { connectMcp, type McpTestClient } from '../helpers/mcp-gateway-clients.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { AGENT_MD, bundleSettings, bundleZip, poll, registerHandle, settled, startJob } from './bundles-harness.js';
import { runToEnd } from './evals-harness.js';

type Headers = Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- poll and approval bodies are asserted ad hoc
type Body = any;

const POLICIES = `
@id("calculator-twos")
permit(principal, action == Portcullis::Action::"calculator.evaluate", resource)
  when { context.arguments.expression like "2*" };

@id("clocks-for-all")
permit(principal, action == Portcullis::Action::"clock.now", resource);

@id("text-for-the-helper-bundle")
permit(principal, action in Portcullis::Action::"call", resource)
  when { resource == Portcullis::Tool::"text" && context.bundleId == "helper" };

@id("memory-asks")
@approval("required")
permit(principal, action == Portcullis::Action::"memory.set", resource);
`;
const VERSION = createHash('sha256').update(POLICIES).digest('hex').slice(0, 12);
const OTHER_AGENT_MD = '---\nid: other\nname: Other\ndescription: Another test agent.\n---\nYou are another test agent.\n';

const INVOKE = 'Harness.Tools.Invoke';
const APPROVER = 'Harness.Approvals.Decide';
const EVALS = 'Harness.Evals.Execute';
const FAST = Object.fromEntries(
  ['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete', 'workflows-read', 'workflows-write', 'tools-invoke', 'tools-read', 'evals-write', 'evals-read'].map((p) => [
    p,
    { PermitsPerMinute: 100_000 },
  ]),
);

const log = captureLog();
let idp: DevIdp;
let dir: string;
let t: TestApp;
let base: string;
let alice: Headers; // runs bundles, invokes tools, runs evals
let vera: Headers; // approver

function decisions(): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'tool.call.decided');
}
const lastOn = (surface: string, tool: string) => decisions().filter((line) => line['surface'] === surface && line['tool'] === tool).at(-1);

beforeAll(async () => {
  idp = await startTestIdp();
  dir = await mkdtemp(join(tmpdir(), 'portcullis-policies-surfaces-'));
  const file = join(dir, 'rules.cedar');
  await writeFile(file, POLICIES);
  const datasets = join(dir, 'datasets');
  await mkdir(datasets);
  await writeFile(
    join(datasets, 'remember.yaml'),
    [
      'subject: { system: You remember things., tools: [memory, calculator] }',
      'cases:',
      '  - { id: asks, input: "call memory set {\\"key\\":\\"k\\",\\"value\\":\\"v\\"}", assert: [{ type: contains, value: denied by policy }] }',
      '  - { id: allowed, input: "call calculator evaluate {\\"expression\\":\\"2+2\\"}", assert: [{ type: contains, value: "\\"result\\":4" }] }',
    ].join('\n'),
  );
  const settings = merge(
    bundleSettings(join(dir, 'staging')),
    idpSettings(idp, {
      Policies: { Files: [file], Mode: 'Enforce' },
      Approvals: { Enabled: true, AllowSelfApproval: false },
      McpGateway: { Enabled: true },
      DirectToolInvocation: { Enabled: true },
      Evaluation: { Enabled: true, DatasetRoots: [datasets] },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'text', 'memory'], AutonomyCeiling: 'Autonomous' } } },
      RateLimits: FAST,
    }),
    // Real tokens only: the bundle harness's anonymous default is switched off.
    { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: false } } } } },
  );
  t = await buildTestApp({ environment: 'Production', settings, deps: { logger: createLogger({ level: 'info', destination: log.destination }) } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = bearer(await idp.mintToken({ sub: 'alice', name: 'Alice', roles: [INVOKE, EVALS] }));
  vera = bearer(await idp.mintToken({ sub: 'vera', name: 'Vera', roles: [APPROVER] }));
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('bundle runs (surface "bundle")', () => {
  it('tells the model a call a policy denies by an argument\'s value was denied, and records the policy on the line', async () => {
    const handle = await registerHandle(t.app, alice);
    const allowed = await startJob(t.app, handle, { userMessages: ['call calculator evaluate {"expression": "2+2"}'] }, alice);
    const ran = (await settled(t.app, handle, allowed, alice)) as Body;
    expect(ran).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, totalToolInvocations: 1 } });
    expect(ran.result.finalResponse).not.toContain(TOOL_DENIED_CONTENT);
    expect(lastOn('bundle', 'calculator')).toMatchObject({ verdict: 'allowed', policy: { version: VERSION, decision: 'allow', determining: ['calculator-twos'], errors: [], mode: 'Enforce' } });

    const jobId = await startJob(t.app, handle, { userMessages: ['call calculator evaluate {"expression": "3+3"}'] }, alice);
    const done = (await settled(t.app, handle, jobId, alice)) as Body;
    expect(done).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true } });
    // The Scripted model answers with the tool results it was given: the denial, not a result.
    expect(TOOL_DENIED_CONTENT).toBe('Tool call denied by policy.');
    expect(done.result.finalResponse).toBe(`Tool results:\n- calculator: ${TOOL_DENIED_CONTENT}`);
    const line = lastOn('bundle', 'calculator');
    expect(line).toMatchObject({ surface: 'bundle', verdict: 'denied', denial: 'policy', policy: { version: VERSION, decision: 'deny', determining: [], errors: [], mode: 'Enforce' } });
    expect(JSON.stringify(line)).not.toContain('3+3');
  });

  it('parks the run on a call a policy asks about; the approval names the policy and the set\'s version; approved, the call runs', async () => {
    const handle = await registerHandle(t.app, alice);
    const jobId = await startJob(t.app, handle, { userMessages: ['call memory set {"key": "colour", "value": "teal"}'] }, alice);
    const parked = await eventually(async () => {
      const current = (await poll(t.app, handle, jobId, alice)).json<{ status: string; pendingApprovals?: Array<{ approvalId: string }> }>();
      return current.pendingApprovals === undefined ? undefined : current;
    });
    expect(parked.status).toBe('Running');
    expect(parked.pendingApprovals).toEqual([expect.objectContaining({ tool: 'memory', operation: 'set' })]);
    // Parked, nothing ran and nothing is decided yet: the line is written once the person has decided.
    expect(lastOn('bundle', 'memory')).toBeUndefined();
    const approvalId = parked.pendingApprovals?.[0]?.approvalId ?? '';
    const approval = (await t.app.inject({ method: 'GET', url: `/api/approvals/${approvalId}`, headers: vera })).json<Body>();
    expect(approval).toMatchObject({ kind: 'ToolCall', runKind: 'bundle', jobId, handle, tool: 'memory', operation: 'set', reason: 'policy memory-asks', policyVersion: VERSION, status: 'Pending' });
    expect(approval.policyVersion).toMatch(/^[0-9a-f]{12}$/);
    // The caller is no approver.
    expect((await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/decision`, headers: alice, payload: { decision: 'Approve' } })).statusCode).toBe(403);
    const decided = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/decision`, headers: vera, payload: { decision: 'Approve' } });
    expect(decided.statusCode).toBe(200);
    const done = (await settled(t.app, handle, jobId, alice)) as Body;
    expect(done).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true, totalToolInvocations: 1 } });
    expect(done.pendingApprovals).toBeUndefined();
    expect(done.result.finalResponse).toMatch(/^Tool results:\n- memory: /);
    expect(done.result.finalResponse).not.toContain(TOOL_DENIED_CONTENT);
    expect(done.result.finalResponse).not.toContain('rejected');
    expect(lastOn('bundle', 'memory')).toMatchObject({ surface: 'bundle', verdict: 'allowed', policy: { version: VERSION, decision: 'ask', determining: ['memory-asks'], mode: 'Enforce' } });
  });

  it('gives policies the AGENT.md id as context.bundleId: the helper bundle\'s call is allowed, another bundle\'s and a direct one are not', async () => {
    const message = { userMessages: ['call text count_tokens {"text": "abc"}'] };
    const helper = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': AGENT_MD }));
    const ran = (await settled(t.app, helper, await startJob(t.app, helper, message, alice), alice)) as Body;
    expect(ran).toMatchObject({ status: 'Succeeded', result: { totalToolInvocations: 1 } });
    expect(ran.result.finalResponse).not.toContain(TOOL_DENIED_CONTENT);
    expect(lastOn('bundle', 'text')).toMatchObject({ verdict: 'allowed', policy: { decision: 'allow', determining: ['text-for-the-helper-bundle'] } });

    const other = await registerHandle(t.app, alice, bundleZip({ 'AGENT.md': OTHER_AGENT_MD }));
    const refused = (await settled(t.app, other, await startJob(t.app, other, message, alice), alice)) as Body;
    expect(refused.result.finalResponse).toBe(`Tool results:\n- text: ${TOOL_DENIED_CONTENT}`);
    expect(lastOn('bundle', 'text')).toMatchObject({ verdict: 'denied', denial: 'policy', policy: { decision: 'deny', determining: [] } });

    const direct = await t.app.inject({ method: 'POST', url: '/api/tools/text/invoke', headers: alice, payload: { operation: 'count_tokens', parameters: { text: 'abc' } } });
    expect(direct.statusCode).toBe(403);
  });
});

describe('the MCP gateway (surface "mcp")', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await connectMcp(`${base}/mcp`, '2026-07-28', (alice.authorization ?? '').slice('Bearer '.length));
  });
  afterAll(async () => {
    await client?.close();
  });

  const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }): string => {
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
    return result.content[0]?.text ?? '';
  };

  it('answers a call a policy denies with an isError result carrying the text direct invocation gives', async () => {
    const direct = await t.app.inject({ method: 'POST', url: '/api/tools/calculator/invoke', headers: alice, payload: { operation: 'evaluate', parameters: { expression: '3+3' } } });
    expect(direct.statusCode).toBe(403);
    const detail = direct.json<{ detail: string }>().detail;
    expect(detail).toBe(INVOKE_FORBIDDEN_DETAIL);

    const denied = await client.callTool('calculator', { operation: 'evaluate', parameters: { expression: '3+3' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toBe(detail);
    const line = lastOn('mcp', 'calculator');
    expect(line).toMatchObject({ surface: 'mcp', verdict: 'denied', denial: 'policy', policy: { version: VERSION, decision: 'deny', determining: [], errors: [], mode: 'Enforce' } });
    expect(JSON.stringify(line)).not.toContain('3+3');
  });

  it('answers a call a policy allows with the tool\'s result', async () => {
    const allowed = await client.callTool('calculator', { operation: 'evaluate', parameters: { expression: '2+2' } });
    expect(allowed.isError ?? false).toBe(false);
    expect(textOf(allowed)).toContain('"result":4');
    expect(lastOn('mcp', 'calculator')).toMatchObject({ surface: 'mcp', verdict: 'allowed', policy: { version: VERSION, decision: 'allow', determining: ['calculator-twos'], errors: [], mode: 'Enforce' } });
  });

  it('cannot wait for a person: a call a policy asks about is refused the same way (denial "approval")', async () => {
    const asked = await client.callTool('memory', { operation: 'set', parameters: { key: 'k', value: 'v' } });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toBe(INVOKE_FORBIDDEN_DETAIL);
    expect(lastOn('mcp', 'memory')).toMatchObject({ surface: 'mcp', verdict: 'denied', denial: 'approval', policy: { decision: 'ask', determining: ['memory-asks'] } });
  });
});

describe('eval runs (surface "eval")', () => {
  it('cannot wait for a person: a policy ask is a denial there (denial "approval"), an allowed call runs', async () => {
    const pending = async (): Promise<unknown> => (await t.app.inject({ method: 'GET', url: '/api/approvals?scope=mine', headers: alice })).json<{ items: unknown }>().items;
    const before = await pending();
    const done = await runToEnd(t, alice, { datasets: ['remember'] });
    expect(done).toMatchObject({ status: 'Succeeded', counts: { passed: 2, failed: 0, errored: 0, total: 2 } });
    expect(lastOn('eval', 'memory')).toMatchObject({ surface: 'eval', verdict: 'denied', denial: 'approval', policy: { version: VERSION, decision: 'ask', determining: ['memory-asks'], mode: 'Enforce' } });
    expect(lastOn('eval', 'calculator')).toMatchObject({ surface: 'eval', verdict: 'allowed', policy: { decision: 'allow', determining: ['calculator-twos'] } });
    // Nobody was asked.
    expect(await pending()).toEqual(before);
  });
});
