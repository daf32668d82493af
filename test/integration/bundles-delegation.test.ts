// `delegate_task` from a bundle run: a host agent from Agents:DiscoveryPaths runs as a sub-agent under
// the SAME envelope as the run that called it, its answer comes back as the tool result, and nesting
// stops at two levels. Its model calls count against the run's spend (DESIGN §16).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, listen, readVerifiedStream, registerHandle, settled, startJob, startRun } from './bundles-harness.js';

let base: string;
let agents: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-delegation-'));
  agents = join(base, 'host-agents');
  await mkdir(join(agents, 'relay'), { recursive: true });
  await writeFile(join(agents, 'relay', 'AGENT.md'), '---\nid: relay\ndescription: Does what it is told.\n---\nDo exactly what the task says.\n');
  await mkdir(join(agents, 'clock-only'), { recursive: true });
  await writeFile(join(agents, 'clock-only', 'AGENT.md'), '---\nid: clock-only\nallowed-tools: clock\n---\nOnly tells the time.\n');
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function app(allowedTools: string[], budget?: Record<string, number>): Promise<{ t: TestApp; url: string }> {
  const t = await buildTestApp({
    settings: bundleSettings(join(base, `root-${++roots}`), {
      Agents: { DiscoveryPaths: [agents] },
      BundleExecution: { Envelopes: { Default: { AllowedTools: allowedTools, AutonomyCeiling: 'Autonomous', ...(budget === undefined ? {} : { Budget: budget }) } } },
      // The Scripted model reports characters / 4 as tokens: a dollar per thousand makes each call cost cents.
      ChatModel: { Provider: 'Scripted', Pricing: { InputPerMillionTokens: 1_000, OutputPerMillionTokens: 1_000 } },
      RateLimits: { 'tools-read': { PermitsPerMinute: 100_000 } },
    }),
  });
  apps.push(t);
  return { t, url: await listen(t.app) };
}

const delegate = (agent: string, task: string): string => `call delegate_task run ${JSON.stringify({ agent, task })}`;

async function toolResults(t: TestApp, url: string, message: string): Promise<string[]> {
  const handle = await registerHandle(t.app);
  const { streamUrl } = (await startRun(t.app, handle, { userMessages: [message], stream: true })).json();
  const events = await readVerifiedStream(`${url}${streamUrl}`);
  return events.filter((e) => e.type === 'TOOL_CALL_RESULT').map((e) => (e as { content: string }).content);
}

describe('delegate_task', () => {
  it('runs a host agent as a sub-agent whose tool calls go through the same envelope', async () => {
    const { t, url } = await app(['delegate_task', 'calculator']);
    const [result] = await toolResults(t, url, delegate('relay', 'call calculator evaluate {"expression":"3*3"}'));
    expect(result).toBe('Tool results:\n- calculator: {"expression":"3*3","result":9}');
  });

  it('denies the sub-agent whatever the envelope denies the caller', async () => {
    const { t, url } = await app(['delegate_task']);
    const [result] = await toolResults(t, url, delegate('relay', 'call calculator evaluate {"expression":"3*3"}'));
    expect(result).toBe('Tool results:\n- calculator: Tool call denied by policy.');
  });

  it('narrows the sub-agent further by the host agent’s own allowed-tools', async () => {
    const { t, url } = await app(['delegate_task', 'calculator', 'clock']);
    const [result] = await toolResults(t, url, delegate('clock-only', 'call calculator evaluate {"expression":"1+1"}'));
    expect(result).toBe('Tool results:\n- calculator: Tool call denied by policy.');
  });

  it('allows two levels of delegation and refuses a third', async () => {
    const { t, url } = await app(['delegate_task', 'clock']);
    const [two] = await toolResults(t, url, delegate('relay', delegate('relay', 'call clock now')));
    expect(two).toMatch(/^Tool results:\n- delegate_task: Tool results:\n- clock: \{/);
    const [three] = await toolResults(t, url, delegate('relay', delegate('relay', delegate('relay', 'call clock now'))));
    expect(three).toBe('Tool results:\n- delegate_task: Tool results:\n- delegate_task: The tool call failed.');
  });

  it('fails the call for an unknown host agent, and counts the sub-agent’s tokens in the run’s usage', async () => {
    const { t, url } = await app(['delegate_task', 'clock']);
    expect(await toolResults(t, url, delegate('nobody', 'anything'))).toEqual(['The tool call failed.']);
    const handle = await registerHandle(t.app);
    const plain = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: ['call clock now'] }));
    const delegated = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: [delegate('relay', 'call clock now')] }));
    const total = (run: Record<string, unknown>) => {
      const usage = run.usage as { inputTokens: number; outputTokens: number };
      return usage.inputTokens + usage.outputTokens;
    };
    expect(total(delegated)).toBeGreaterThan(total(plain) * 2);
  });

  it('counts the sub-agent’s model calls against the run’s spend, and stops the run once the limit is reached', async () => {
    const { t } = await app(['delegate_task', 'clock'], { MaxUsdPerDay: 1 });
    const handle = await registerHandle(t.app);
    const run = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: [delegate('relay', 'call clock now')] }));
    const { costUsd } = run.usage as { costUsd: number };
    const spend = (await t.app.inject({ method: 'GET', url: '/api/spend' })).json<{ day: { spentUsd: number } }>();
    // The run's usage includes its sub-agent's tokens; the spend counted is exactly that, priced.
    expect(spend.day.spentUsd).toBeCloseTo(costUsd, 9);
    expect(costUsd).toBeGreaterThan(0);

    // Spend the rest of the day, then delegate: nothing more is sent, the run stops gracefully.
    let last = run;
    while ((last.result as { budgetExhausted: boolean }).budgetExhausted === false) {
      last = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: [delegate('relay', 'call clock now'), 'again'] }));
    }
    expect(last.result).toMatchObject({ conversationSucceeded: true, budgetExhausted: true, conversationError: 'The spend limit was reached.' });
    const refused = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: [delegate('relay', 'call clock now')] }));
    expect(refused.result).toMatchObject({ turnCount: 1, budgetExhausted: true, conversationError: 'The spend limit was reached.' });
    expect(refused.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });
});
