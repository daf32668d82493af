// DESIGN §18 end to end, with real tokens from the loopback identity provider and real runs: Cedar
// policies read the call (an argument's value, the caller's role and claims, the run's counters),
// deny it, or ask a person through the approval contract; Shadow records without enforcing; the
// explain, schema and capabilities routes; SIGHUP's reload keeps the set in force when the new one is
// invalid; an invalid set stops start-up naming its file and line.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { PolicyLoadError } from '../../src/policies/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { chain, isFinal, pollUntil, start, statusIs, submit, toolStep } from './workflows-harness.js';

type Headers = Record<string, string>;

const POLICIES = `
@id("calculator-twos")
permit(principal, action == Portcullis::Action::"calculator.evaluate", resource)
  when { context.arguments.expression like "2*" };

@id("clock-for-support")
permit(principal in Portcullis::Role::"support", action == Portcullis::Action::"clock.now", resource);

@id("three-clocks-a-run")
forbid(principal, action == Portcullis::Action::"clock.now", resource)
  when { context.run.callsOfThisTool >= 3 };

@id("finance-text")
permit(principal, action in Portcullis::Action::"call", resource)
  when { resource == Portcullis::Tool::"text" && principal.hasTag("department") && principal.getTag("department") == "finance" };

@id("memory-asks")
@approval("required")
permit(principal, action == Portcullis::Action::"memory.set", resource);
`;

let idp: DevIdp;
let dir: string;
let file: string;
let t: TestApp;
const log = captureLog();
let alice: Headers; // support, department finance
let bob: Headers; // no roles, no department
let vera: Headers; // approver

const FAST = Object.fromEntries(['workflows-write', 'workflows-read', 'tools-invoke', 'tools-read'].map((p) => [p, { PermitsPerMinute: 100_000 }]));
const settings = (policyFile: string, mode = 'Enforce') =>
  idpSettings(idp, {
    Policies: { Files: [policyFile], Mode: mode },
    Approvals: { Enabled: true },
    BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'text', 'memory'], AutonomyCeiling: 'Autonomous' } }, Auth: { AnonymousRoles: [] } },
    DirectToolInvocation: { Enabled: true },
    RateLimits: FAST,
  });

function decisions(): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'tool.call.decided');
}

const invoke = (who: Headers, tool: string, operation: string, parameters: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/tools/${tool}/invoke`, headers: who, payload: { operation, parameters } });
const evaluate = (who: Headers, body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/policies/evaluate', headers: who, payload: body });

beforeAll(async () => {
  idp = await startTestIdp();
  dir = await mkdtemp(join(tmpdir(), 'portcullis-policies-'));
  file = join(dir, 'rules.cedar');
  await writeFile(file, POLICIES);
  t = await buildTestApp({ environment: 'Production', deps: { chatModel: null, logger: createLogger({ level: 'info', destination: log.destination }) }, settings: settings(file) });
  const invoker = 'Harness.Tools.Invoke';
  alice = bearer(await idp.mintToken({ sub: 'alice', name: 'Alice', roles: [invoker, 'support'], department: 'finance' }));
  bob = bearer(await idp.mintToken({ sub: 'bob', roles: [invoker] }));
  vera = bearer(await idp.mintToken({ sub: 'vera', name: 'Vera', roles: ['Harness.Approvals.Decide'] }));
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('policies that read the call (DESIGN §18)', () => {
  it('allows or denies a direct call by an argument\'s value, and writes the policy object on its audit line', async () => {
    const version = createHash('sha256').update(POLICIES).digest('hex').slice(0, 12);
    expect((await invoke(bob, 'calculator', 'evaluate', { expression: '2+2' })).statusCode).toBe(200);
    const denied = await invoke(bob, 'calculator', 'evaluate', { expression: '3+3' });
    expect(denied.statusCode).toBe(403);
    const lines = decisions().filter((line) => line['tool'] === 'calculator');
    expect(lines.at(-2)).toMatchObject({ verdict: 'allowed', policy: { version, decision: 'allow', determining: ['calculator-twos'], errors: [], mode: 'Enforce' } });
    expect(lines.at(-1)).toMatchObject({ verdict: 'denied', denial: 'policy', policy: { version, decision: 'deny', determining: [], mode: 'Enforce' } });
    expect(JSON.stringify(lines)).not.toContain('3+3');
  });

  it('denies, never crashes on, an argument a policy reads that cannot be handed to Cedar exactly (text with NUL)', async () => {
    const nul = await invoke(bob, 'calculator', 'evaluate', { expression: '2\u0000+2' });
    expect(nul.statusCode).toBe(403);
    const lines = decisions().filter((line) => line['tool'] === 'calculator').slice(-1);
    expect(lines[0]).toMatchObject({ verdict: 'denied', denial: 'policy', policy: { decision: 'deny', determining: [], errors: [] } });
    expect(JSON.stringify(lines)).not.toContain('\u0000');
    // The service still answers.
    expect((await invoke(bob, 'calculator', 'evaluate', { expression: '2+2' })).statusCode).toBe(200);
  });

  it('reads the caller\'s roles and token claims', async () => {
    expect((await invoke(alice, 'clock', 'now', {})).statusCode).toBe(200);
    expect((await invoke(bob, 'clock', 'now', {})).statusCode).toBe(403);
    expect((await invoke(alice, 'text', 'count_tokens', { text: 'abc' })).statusCode).toBe(200);
    expect((await invoke(bob, 'text', 'count_tokens', { text: 'abc' })).statusCode).toBe(403);
  });

  it('denies a call by its run\'s counters: a workflow\'s fourth clock call fails with the policy text', async () => {
    const id = await submit(t.app, chain('four-clocks', toolStep('a'), toolStep('b'), toolStep('c'), toolStep('d')), alice);
    const { statusUrl } = await start(t.app, id, undefined, alice);
    const run = await pollUntil(t.app, statusUrl, isFinal, alice);
    expect(run.status).toBe('Failed');
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded', 'Failed']);
    expect(run.steps[3]).toMatchObject({ error: 'Tool call denied by policy.' });
    expect(decisions().filter((line) => line['surface'] === 'workflow').at(-1)).toMatchObject({ denial: 'policy', policy: { decision: 'deny', determining: ['three-clocks-a-run'] } });
  });

  it('asks a person when a policy says so (the approval names the policy and the set\'s version): approved, the step runs; rejected, it fails', async () => {
    for (const decision of ['Approve', 'Reject'] as const) {
      const id = await submit(t.app, chain(`remember-${decision}`, toolStep('keep', 'memory', 'set', { key: 'k', value: 'v' })), alice);
      const { statusUrl } = await start(t.app, id, undefined, alice);
      const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), alice);
      const approvalId = blocked.pendingApprovals[0].approvalId as string;
      const approval = (await t.app.inject({ method: 'GET', url: `/api/approvals/${approvalId}`, headers: vera })).json();
      expect(approval).toMatchObject({ kind: 'ToolCall', tool: 'memory', operation: 'set', reason: 'policy memory-asks', policyVersion: expect.stringMatching(/^[0-9a-f]{12}$/) });
      const decided = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/decision`, headers: vera, payload: { decision } });
      expect(decided.statusCode).toBe(200);
      const run = await pollUntil(t.app, statusUrl, isFinal, alice);
      expect(run.status).toBe(decision === 'Approve' ? 'Succeeded' : 'Failed');
    }
    // Direct invocation cannot wait for a person: the ask is a denial there.
    expect((await invoke(alice, 'memory', 'set', { key: 'k', value: 'v' })).statusCode).toBe(403);
    expect(decisions().filter((line) => line['surface'] === 'direct' && line['tool'] === 'memory').at(-1)).toMatchObject({ denial: 'approval', policy: { decision: 'ask' } });
  });

  it('explains a call for the caller: combined with the envelope and the surface, nothing run', async () => {
    const before = decisions().length;
    expect((await evaluate(bob, { tool: 'calculator', operation: 'evaluate', arguments: { expression: '3+3' } })).json()).toMatchObject({ decision: 'deny', denial: 'policy', determining: [], mode: 'Enforce' });
    expect((await evaluate(bob, { tool: 'calculator', operation: 'evaluate', arguments: { expression: '2+3' } })).json()).toMatchObject({ decision: 'allow', denial: null, determining: ['calculator-twos'] });
    expect((await evaluate(alice, { tool: 'memory', operation: 'set', arguments: { key: 'k', value: 'v' } })).json()).toMatchObject({ decision: 'deny', denial: 'approval' });
    expect((await evaluate(alice, { tool: 'memory', operation: 'set', arguments: { key: 'k', value: 'v' }, surface: 'workflow' })).json()).toMatchObject({ decision: 'ask', denial: null, determining: ['memory-asks'] });
    expect((await evaluate(alice, { tool: 'http_fetch', operation: 'get', arguments: { url: 'https://x' } })).json()).toMatchObject({ decision: 'deny', denial: 'not-granted' });
    expect((await evaluate(alice, { tool: 'calculator', operation: 'nope' })).statusCode).toBe(400);
    expect((await evaluate(alice, { tool: 'calculator', operation: 'evaluate', extra: true })).statusCode).toBe(400);
    expect(decisions().length).toBe(before);
  });

  it('serves the schema and shows the mode and version in the capabilities', async () => {
    const schema = (await t.app.inject({ method: 'GET', url: '/api/policies/schema', headers: bob })).json();
    expect(schema['Portcullis'].actions).toHaveProperty(['calculator.evaluate']);
    const capabilities = (await t.app.inject({ method: 'GET', url: '/api/capabilities', headers: bob })).json();
    expect(capabilities.policy).toEqual({ mode: 'Enforce', version: createHash('sha256').update(POLICIES).digest('hex').slice(0, 12) });
  });

  it('reloads on SIGHUP: a valid set takes over, an invalid one is refused and the set in force stays', async () => {
    const versionOf = async () => (await t.app.inject({ method: 'GET', url: '/api/capabilities', headers: bob })).json().policy.version as string;
    const first = await versionOf();
    const widened = `${POLICIES}\n@id("calculator-all")\npermit(principal, action == Portcullis::Action::"calculator.evaluate", resource);\n`;
    await writeFile(file, widened);
    await t.reload();
    const second = await versionOf();
    expect(second).not.toBe(first);
    expect((await invoke(bob, 'calculator', 'evaluate', { expression: '3+3' })).statusCode).toBe(200);
    await writeFile(file, `${widened}\npermit(principal, action == Portcullis::Action::"calculator.evaluate", resource) when { context.arguments.nope == 1 };\n`);
    await t.reload();
    expect(await versionOf()).toBe(second);
    expect((await invoke(bob, 'calculator', 'evaluate', { expression: '3+3' })).statusCode).toBe(200);
    await writeFile(file, POLICIES);
    await t.reload();
    expect(await versionOf()).toBe(first);
  });
});

describe('Shadow mode', () => {
  it('decides and records, enforcing nothing', async () => {
    const shadowLog = captureLog();
    const shadow = await buildTestApp({ environment: 'Production', deps: { chatModel: null, logger: createLogger({ level: 'info', destination: shadowLog.destination }) }, settings: settings(file, 'Shadow') });
    try {
      const res = await shadow.app.inject({ method: 'POST', url: '/api/tools/calculator/invoke', headers: bob, payload: { operation: 'evaluate', parameters: { expression: '3+3' } } });
      expect(res.statusCode).toBe(200);
      const line = shadowLog.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['event'] === 'tool.call.decided');
      expect(line).toMatchObject({ verdict: 'allowed', policy: { decision: 'deny', mode: 'Shadow' } });
    } finally {
      await shadow.close();
    }
  });
});

describe('an invalid policy set', () => {
  it('stops start-up, naming the file, the line and Cedar\'s message', async () => {
    const bad = join(dir, 'bad.cedar');
    await writeFile(bad, `// fine so far\n\npermit(principal, action == Portcullis::Action::"calculator.evaluate", resource) when { context.arguments.expression > 3 };\n`);
    const refused = await buildTestApp({ environment: 'Production', deps: { chatModel: null }, settings: settings(bad) }).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PolicyLoadError);
    expect((refused as Error).message).toContain(`${bad}:3:`);
    expect(await readFile(bad, 'utf8')).toContain('expression > 3');
  });
});
