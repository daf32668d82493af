// DESIGN §20 point 3: an A2A task is a bundle run under the caller's envelope — its tools are the
// envelope's, §18's policies decide its calls (an `ask` makes it INPUT_REQUIRED even under Autonomous),
// §16's spend limits stop it — and the audit trail and metrics count it as one: `envelope.resolved` on
// surface `bundle` with channel `a2a`, tool decisions on surface `bundle`, runs of family `bundle`, and
// the A2A requests themselves by method and outcome.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log/index.js';
import { captureLog } from '../helpers/log-capture.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, listen, poll, registerHandle } from './bundles-harness.js';
import { a2aClient, a2aSettings, answerOf, asTask, stateOf, textMessage, waitingOf } from './a2a-harness.js';

const POLICIES = `
@id("calculator-twos")
permit(principal, action == Portcullis::Action::"calculator.evaluate", resource)
  when { context.arguments.expression like "2*" };

@id("clock-asks")
@approval("required")
permit(principal, action == Portcullis::Action::"clock.now", resource);
`;

describe('an A2A task under the envelope, the policies and the audit trail', () => {
  const log = captureLog();
  let temp: string;
  let t: TestApp;
  let base: string;
  let handle: string;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-governance-'));
    const file = join(temp, 'policies.cedar');
    await writeFile(file, POLICIES);
    const settings = merge(
      a2aSettings(bundleSettings(join(temp, 'staging')), {
        Approvals: { Enabled: true },
        Policies: { Files: [file] },
        BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } } },
      }),
      { AppConfig: { Observability: { Metrics: { Enabled: true } } } },
    );
    t = await buildTestApp({ settings, deps: { logger: createLogger({ level: 'info', destination: log.destination }) } });
    base = await listen(t.app);
    handle = await registerHandle(t.app);
  });
  afterAll(async () => {
    await t.close();
    await rm(temp, { recursive: true, force: true });
  });

  const ask = async (text: string) => asTask(await (await a2aClient(base, handle)).sendMessage(textMessage(text)));

  it('offers only the envelope’s tools: a tool it does not grant is denied, and the model is told so', async () => {
    expect(answerOf(await ask('call json query {"data": {}, "expression": "a"}'))).toBe('Tool results:\n- json: Tool call denied by policy.');
  });

  it('lets the policies decide each call: a permitted one runs, one no permit matches is denied', async () => {
    expect(answerOf(await ask('call calculator evaluate {"expression": "2*3"}'))).toBe('Tool results:\n- calculator: {"expression":"2*3","result":6}');
    expect(answerOf(await ask('call calculator evaluate {"expression": "3*3"}'))).toBe('Tool results:\n- calculator: Tool call denied by policy.');
  });

  it('makes a call a policy asks about wait for a person, even under Autonomous', async () => {
    const task = await ask('call clock now');
    expect(stateOf(task)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(waitingOf(task)).toMatchObject({ tool: 'clock', operation: 'now' });
  });

  it('audits the run as a bundle run on the a2a channel, and counts it in the metrics', async () => {
    const task = await ask('audited');
    const lines = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.event === 'envelope.resolved' && line.jobId === task.id)).toMatchObject({ surface: 'bundle', channel: 'a2a', source: 'anonymous' });
    // A run of the bundle routes says no channel.
    const started = await t.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers: { 'content-type': 'application/json' }, payload: { userMessages: ['plain'] } });
    const jobId = started.json<{ jobId: string }>().jobId;
    const plain = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.event === 'envelope.resolved' && line.jobId === jobId);
    expect(plain).toMatchObject({ surface: 'bundle' });
    expect(plain).not.toHaveProperty('channel');
    expect(lines.some((line) => line.event === 'tool.call.decided' && line.surface === 'bundle' && line.tool === 'calculator')).toBe(true);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/portcullis_a2a_requests_total\{method="SendMessage",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/portcullis_runs_started_total\{family="bundle"\} [1-9]/);
  });
});

describe('an A2A task under a spend limit', () => {
  let temp: string;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'portcullis-a2a-spend-'));
    const settings = a2aSettings(bundleSettings(join(temp, 'staging')), {
      ChatModel: { Provider: 'Scripted', Pricing: { InputPerMillionTokens: 1_000_000, OutputPerMillionTokens: 1_000_000 } },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['calculator'], AutonomyCeiling: 'Autonomous', Budget: { MaxUsdPerRun: 1 } } } },
    });
    t = await buildTestApp({ settings });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    await rm(temp, { recursive: true, force: true });
  });

  it('stops the run at the limit, as a bundle run stops: the model call after the crossing one is refused', async () => {
    const handle = await registerHandle(t.app);
    const task = asTask(await (await a2aClient(base, handle)).sendMessage(textMessage('call calculator evaluate {"expression": "2*3"}')));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect((await poll(t.app, handle, task.id)).json()).toMatchObject({ status: 'Succeeded', result: { budgetExhausted: true, conversationError: 'The spend limit was reached.' } });
    expect(task.metadata).toMatchObject({ budgetExhausted: true, conversationError: 'The spend limit was reached.' });
  });
});
