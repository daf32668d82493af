// Amplification through agent conversations (issue 9): tool results carried into every later
// prompt, history replayed on every run of a conversation, and delegate_task budgets. Each attack
// runs a bundle against a real OpenAI-compatible server on loopback (or the Scripted model where only
// token accounting matters) and asserts what reached the model, the caller-safe outcome, and that
// this process's resident memory stayed bounded while it ran.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIReply, type FakeOpenAIServer, type FakeRequestBody } from '../helpers/fake-openai-server.js';
import { startRssProbe } from '../helpers/rss-probe.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_STORAGE } from '../helpers/test-storage.js';
import { bundleSettings, listen, readVerifiedStream, registerHandle, settled, startJob, startRun } from './bundles-harness.js';

const KiB = 1024;
const MiB = 1024 * KiB;

let base: string;
let agents: string;
const apps: TestApp[] = [];
const fakes: FakeOpenAIServer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-amplification-'));
  agents = join(base, 'host-agents');
  await mkdir(join(agents, 'relay'), { recursive: true });
  await writeFile(join(agents, 'relay', 'AGENT.md'), '---\nid: relay\n---\nDo exactly what the task says.\n');
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const fake of fakes.splice(0)) await fake.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function app(ai: Record<string, unknown>): Promise<TestApp> {
  const t = await buildTestApp({ settings: bundleSettings(join(base, `root-${++roots}`), ai) });
  apps.push(t);
  return t;
}

async function fakeModel(reply: (body: FakeRequestBody) => FakeOpenAIReply): Promise<{ fake: FakeOpenAIServer; ai: Record<string, unknown> }> {
  const fake = await startFakeOpenAIServer(reply);
  fakes.push(fake);
  return { fake, ai: { ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake', ApiKey: 'sk-test' } } };
}

const requestBytes = (fake: FakeOpenAIServer): number[] => fake.requests.map((request) => Buffer.byteLength(JSON.stringify(request.body)));

describe('conversation amplification', () => {
  it('stops a tool loop whose results pile up in the prompt before any request passes MaxPromptBytes', async () => {
    // Every model step asks for a ~960 KB JSON query result: unbounded, each later prompt carries them all.
    const blowUp = JSON.stringify({ operation: 'query', parameters: { data: 'd'.repeat(30_000), expression: `[${Array(32).fill('@').join(',')}]` } });
    const { fake, ai } = await fakeModel(() => ({ type: 'stream', steps: [{ toolCall: { name: 'json', argumentChunks: [blowUp] } }] }));
    const t = await app({ ...ai, BundleExecution: { Envelopes: { Default: { AllowedTools: ['json'], AutonomyCeiling: 'Autonomous' } } } });
    const handle = await registerHandle(t.app);
    const probe = startRssProbe();
    try {
      const jobs = await Promise.all(Array.from({ length: 4 }, () => startJob(t.app, handle, { userMessages: ['go'] })));
      for (const job of jobs) {
        const run = await settled(t.app, handle, job);
        probe.sample();
        expect(run).toMatchObject({
          status: 'Succeeded',
          result: { conversationSucceeded: false, conversationError: 'The prompt is larger than the 2097152 bytes this host sends to a chat model.' },
        });
      }
      // Two results fit in 2 MiB; the third call is refused before it is sent.
      expect(fake.requests).toHaveLength(4 * 3);
      expect(Math.max(...requestBytes(fake))).toBeLessThan(2 * MiB + 64 * KiB);
      // Unbounded: 25 calls a turn, each resending every earlier result (about 300 MB upstream per run,
      // over a gigabyte for the four). Bounded it peaks near 120 MiB on an idle machine and a little over
      // 150 when the garbage collector lags on a loaded one; 250 still tells the two apart.
      expect(probe.peakGrowthMiB()).toBeLessThan(250);
    } finally {
      probe.stop();
    }
  });

  it('replays and keeps only MaxHistoryBytes of a conversation however many large messages it has seen', async () => {
    const { fake, ai } = await fakeModel(() => openAIText('noted'));
    const t = await app(ai);
    const handle = await registerHandle(t.app);
    const probe = startRssProbe();
    try {
      for (let run = 0; run < 12; run += 1) {
        const messages = [`${run}a`.padEnd(400 * KiB, 'a'), `${run}b`.padEnd(400 * KiB, 'b')];
        const outcome = await settled(t.app, handle, await startJob(t.app, handle, { userMessages: messages, conversationId: 'long-chat' }));
        probe.sample();
        expect(outcome).toMatchObject({ status: 'Succeeded', result: { conversationSucceeded: true } });
      }
      // Each run's first request: the history (at most 512 KiB of whole messages) and its first message.
      const firsts = fake.requests.filter((_, i) => i % 2 === 0).slice(1);
      for (const request of firsts) {
        const history = (request.body.messages as Array<{ role: string; content: string }>).slice(1, -1);
        expect(Buffer.byteLength(history.map((m) => m.content).join(''))).toBeLessThanOrEqual(512 * KiB);
        expect(history.length).toBeGreaterThan(0);
      }
      expect(Math.max(...requestBytes(fake))).toBeLessThan(2 * MiB);
      // Unbounded: 50 messages of 400 KB replayed on every run (20 MB each). On PostgreSQL the history
      // also passes through the driver's buffers as JSON text on every read and write; since every
      // statement is bounded in time (decision 3511) the peak there measures 220–306 MiB alone and on a
      // loaded machine (132–189 before; why a bound costs this much is not yet known: issue 35's note),
      // and 358 beside a second suite at load 6–11 (2026-12-03), the collector lagging further. What
      // shows the bound are the replayed bytes asserted above; on PostgreSQL this peak is a coarse guard
      // against a blow-up, not the bound's proof.
      expect(probe.peakGrowthMiB()).toBeLessThan(TEST_STORAGE === 'Postgres' ? 450 : 150);
    } finally {
      probe.stop();
    }
  });

  it('gives a sub-agent no more tokens than its parent has left', async () => {
    const t = await app({
      Agents: { DiscoveryPaths: [agents] },
      Conversations: { MaxLifetimeTokens: 400 },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['delegate_task'], AutonomyCeiling: 'Autonomous' } } },
    });
    const url = await listen(t.app);
    const handle = await registerHandle(t.app);
    const probe = startRssProbe();
    try {
      // The parent's own first call spends more than 400 tokens (characters / 4): nothing is left to delegate.
      const task = 'x'.repeat(2_000);
      const { streamUrl } = (await startRun(t.app, handle, { userMessages: [`call delegate_task run ${JSON.stringify({ agent: 'relay', task })}`], stream: true })).json();
      const events = await readVerifiedStream(`${url}${streamUrl}`);
      const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT').map((e) => (e as { content: string }).content);
      expect(results).toEqual(['The tool call failed.']);
      expect(probe.peakGrowthMiB()).toBeLessThan(100);
    } finally {
      probe.stop();
    }
  });
});
