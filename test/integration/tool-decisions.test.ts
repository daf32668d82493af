// DESIGN §17 and issue 21: every governed tool decision — allowed or denied, a tool the envelope does
// not grant included, and a call refused for its arguments — is exactly one `tool.call.decided` audit
// line and one `portcullis_tool_calls_total` sample, on every surface: direct invocation, the MCP
// gateway, bundle runs, workflow ToolUse steps and eval runs. One app (the Scripted model asks for tool calls with
// `call <tool> <operation> <json>`); each test makes one denied and one refused call on its surface (a
// workflow whose step names an ungranted tool is refused at start instead: that refusal is the denial).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log/index.js';
import { captureLog } from '../helpers/log-capture.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, registerHandle, settled, startJob } from './bundles-harness.js';
import { chain, isFinal, pollUntil, start, submit, toolStep } from './workflows-harness.js';

const log = captureLog();
let t: TestApp;
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-decisions-'));
  await writeFile(
    join(base, 'asks.yaml'),
    [
      'subject:',
      '  system: You call tools.',
      '  tools: [calculator, http_fetch]',
      'cases:',
      '  - id: denied',
      '    input: \'call http_fetch get {"url": "http://example.invalid/"}\'',
      '    assert: [{ type: contains, value: x }]',
      '  - id: refused',
      '    input: \'call calculator evaluate {"nope": 1}\'',
      '    assert: [{ type: contains, value: x }]',
    ].join('\n'),
  );
  t = await buildTestApp({
    settings: bundleSettings(join(base, 'staging'), {
      ChatModel: { Provider: 'Scripted' },
      // Above the 100,000-character tool name below (the default, 64 KiB, refuses its body with 413).
      DirectToolInvocation: { Enabled: true, MaxRequestBytes: 262_144 },
      McpGateway: { Enabled: true },
      Evaluation: { Enabled: true, DatasetRoots: [base] },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } }, Auth: { AnonymousRoles: ['Harness.Tools.Invoke', 'Harness.Evals.Execute'] } },
      RateLimits: Object.fromEntries(['tools-invoke', 'workflows-write', 'workflows-read', 'evals-write', 'evals-read'].map((p) => [p, { PermitsPerMinute: 100_000 }])),
    }),
    deps: { logger: createLogger({ level: 'info', destination: log.destination }) },
  });
});

afterAll(async () => {
  await t.close();
  await rm(base, { recursive: true, force: true });
});

/** The decision lines of one surface, as parsed JSON. */
function decisions(surface: string): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'tool.call.decided' && line['surface'] === surface);
}

async function toolCalls(labels: Record<string, string>): Promise<number> {
  const exposition = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
  return Number(exposition.sample('portcullis_tool_calls_total', labels)?.value ?? 0);
}

/** The surface logged exactly one line and counted exactly one sample for each of its two calls. */
async function expectOneDecisionEach(surface: string): Promise<void> {
  expect(decisions(surface).map((d) => [d['tool'], d['verdict'], d['denial'], d['refusal']]).sort()).toEqual([
    ['calculator', 'allowed', null, 'invalid-parameters'],
    ['http_fetch', 'denied', 'not-granted', null],
  ]);
  expect(await toolCalls({ tool: 'http_fetch', surface, outcome: 'denied', rule: 'not_granted' })).toBe(1);
  expect(await toolCalls({ tool: 'calculator', surface, outcome: 'refused', rule: '' })).toBe(1);
}

describe('every tool decision is audited and counted once', () => {
  it('on direct invocation: an ungranted tool (404) and a refused call (400)', async () => {
    const notGranted = await t.app.inject({ method: 'POST', url: '/api/tools/http_fetch/invoke', payload: { operation: 'get', parameters: { url: 'http://example.invalid/' } } });
    expect(notGranted.statusCode).toBe(404);
    const badArguments = await t.app.inject({ method: 'POST', url: '/api/tools/calculator/invoke', payload: { operation: 'evaluate', parameters: { nope: 1 } } });
    expect(badArguments.statusCode).toBe(400);
    await expectOneDecisionEach('direct');
  });

  it('on the MCP gateway: an ungranted tool and a refused call, each an isError result', async () => {
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
      });
    const notGranted = await call(1, 'http_fetch', { operation: 'get', parameters: { url: 'http://example.invalid/' } });
    expect(notGranted.json()).toMatchObject({ id: 1, result: { isError: true } });
    const badArguments = await call(2, 'calculator', { operation: 'evaluate', parameters: { nope: 1 } });
    expect(badArguments.json()).toMatchObject({ id: 2, result: { isError: true } });
    await expectOneDecisionEach('mcp');
  });

  it('on the MCP gateway: a 100,000-character tool name is one denial whose line names it bounded, never whole', async () => {
    const before = decisions('mcp').length;
    const name = `${'x'.repeat(100)} ghp_${'A1b2C3d4E5'.repeat(4)} ${'y'.repeat(100_000)}`;
    const answer = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: { operation: 'now', parameters: {} } } },
    });
    expect(answer.json()).toMatchObject({ id: 3, result: { isError: true, content: [{ type: 'text', text: 'Tool not found.' }] } });
    const lines = decisions('mcp').slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ verdict: 'denied', denial: 'not-granted', operation: 'now' });
    const tool = lines[0]!['tool'] as string;
    // Redacted before it is cut: the token straddling the cut is the marker, not its first characters.
    expect(tool).toBe(`${'x'.repeat(100)} [REDACTED] ${'y'.repeat(128 - 102 - '[REDACTED]'.length)}…`);
    expect(JSON.stringify(lines[0]).length).toBeLessThan(1_000);
  });

  it('in a bundle run: a tool the model was not offered, and arguments the schema refuses', async () => {
    const handle = await registerHandle(t.app);
    for (const message of ['call http_fetch get {"url": "http://example.invalid/"}', 'call calculator evaluate {"nope": 1}']) {
      expect(await settled(t.app, handle, await startJob(t.app, handle, { userMessages: [message] }))).toMatchObject({ status: 'Succeeded' });
    }
    await expectOneDecisionEach('bundle');
  });

  it('in a workflow: a tool the envelope lacks refuses the run at start (a denial, audited), and parameters that render to what the schema refuses', async () => {
    const deniedStart = await t.app.inject({
      method: 'POST',
      url: `/api/workflows/${await submit(t.app, chain('denied', toolStep('fetch', 'http_fetch', 'get', { url: 'http://example.invalid/' })))}/runs`,
    });
    expect(deniedStart.statusCode).toBe(400);
    expect(deniedStart.json<{ diagnostics: Array<{ code: string }> }>().diagnostics.map((d) => d.code)).toEqual(['tool-not-granted']);
    const refusedRun = await start(t.app, await submit(t.app, { ...chain('refused', toolStep('sum', 'calculator', 'evaluate', { expression: '{{ input.x }}' })), configuration: { input: { x: 7 } } }));
    expect(await pollUntil(t.app, refusedRun.statusUrl, isFinal)).toMatchObject({ status: 'Failed' });
    // The refused start is the denial it would have been at the step: one line, one sample, no parameters.
    await expectOneDecisionEach('workflow');
    const denied = decisions('workflow').find((d) => d['verdict'] === 'denied');
    expect(denied).toMatchObject({ tool: 'http_fetch', operation: 'get', denial: 'not-granted', owner: expect.any(String), reqId: deniedStart.headers['x-request-id'] });
    expect(JSON.stringify(denied)).not.toContain('example.invalid');
  });

  it('audits a refused workflow start once per tool and operation, however many steps name them', async () => {
    const before = decisions('workflow').length;
    const steps = [
      toolStep('a', 'http_fetch', 'get', { url: 'http://example.invalid/a' }),
      toolStep('b', 'http_fetch', 'get', { url: 'http://example.invalid/b' }),
      toolStep('c', 'http_fetch', 'head', { url: 'http://example.invalid/c' }),
    ];
    const refused = await t.app.inject({ method: 'POST', url: `/api/workflows/${await submit(t.app, chain('denied-thrice', ...steps))}/runs` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ diagnostics: unknown[] }>().diagnostics).toHaveLength(3);
    expect(decisions('workflow').slice(before).map((d) => [d['tool'], d['operation'], d['verdict'], d['denial']]).sort()).toEqual([
      ['http_fetch', 'get', 'denied', 'not-granted'],
      ['http_fetch', 'head', 'denied', 'not-granted'],
    ]);
  });

  it('in an eval run: a tool the subject asks for but the envelope narrows away, and arguments the schema refuses', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/api/evals/runs', payload: { datasets: ['asks'] } });
    expect(started.statusCode).toBe(202);
    const { statusUrl } = started.json<{ statusUrl: string }>();
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url: statusUrl })).json<{ status: string }>().status, { timeout: 10_000 }).toBe('Succeeded');
    await expectOneDecisionEach('eval');
  });
});
