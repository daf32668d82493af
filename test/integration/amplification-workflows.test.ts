// Amplification through workflow templates and outputs (issue 9): a request may not make the host
// hold or send upstream far more than it received. Each attack runs against the real app with a real
// OpenAI-compatible model server on loopback; the test asserts the refusal (400 at start when the
// size is knowable then, a caller-safe step failure otherwise), the bytes sent upstream, and that
// this process's resident memory stayed bounded while the attack ran.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequestBody } from '../helpers/fake-openai-server.js';
import { startRssProbe } from '../helpers/rss-probe.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { chain, isFinal, llmStep, pollUntil, start, submit, subPlanStep, toolStep, workflowSettings } from './workflows-harness.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** What the fake model server answers: the prompt echoed back, or a fixed text. */
let reply: (body: FakeRequestBody) => string = () => 'ok';
let fake: FakeOpenAIServer;
let t: TestApp;

const lastUserContent = (body: FakeRequestBody): string =>
  String((body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)?.content ?? '');
const upstreamBytes = (): number[] => fake.requests.map((request) => Buffer.byteLength(JSON.stringify(request.body)));

beforeAll(async () => {
  fake = await startFakeOpenAIServer((body) => openAIText(reply(body)));
  t = await buildTestApp({
    settings: workflowSettings({
      ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake', ApiKey: 'sk-test' },
      Workflows: { MaxActiveRunsPerOwner: 20 },
    }),
  });
});

afterAll(async () => {
  await t.close();
  await fake.close();
});

afterEach(() => {
  reply = () => 'ok';
  (fake.requests as unknown[]).length = 0;
});

describe('workflow template amplification', () => {
  it('refuses at start (400) a prompt that repeats a 1 MB input a hundred times; nothing is rendered or sent upstream', async () => {
    const workflowId = await submit(t.app, chain('repeat-input', llmStep('ask', '{{ input.x }}'.repeat(100))));
    const probe = startRssProbe();
    try {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const res = await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs`, payload: { input: { x: 'x'.repeat(1_000_000) } } });
        probe.sample();
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          title: 'Validation failed',
          detail: "With this input, step 'ask' renders a template larger than the 1048576 bytes a template may render to.",
        });
      }
      expect(fake.requests).toHaveLength(0);
      // Unbounded, each attempt renders and sends 100 MB.
      expect(probe.peakGrowthMiB()).toBeLessThan(150);
    } finally {
      probe.stop();
    }
  });

  it('fails the step (caller-safe) when outputs repeated along a chain would render past the bound, and sends no such prompt upstream', async () => {
    reply = lastUserContent; // the model echoes its prompt: each step doubles the text
    const double = (step: string) => `{{ steps.${step}.output }}{{ steps.${step}.output }}`;
    const probe = startRssProbe();
    try {
      const runs = [];
      for (let i = 0; i < 5; i += 1) {
        const workflowId = await submit(
          t.app,
          chain(`doubling-${i}`, llmStep('s1', '{{ input.x }}'), llmStep('s2', double('s1')), llmStep('s3', double('s2')), llmStep('s4', double('s3')), llmStep('s5', double('s4')), llmStep('s6', double('s5')), llmStep('s7', double('s6')), llmStep('s8', double('s7'))),
        );
        runs.push(await start(t.app, workflowId, { input: { x: 'x'.repeat(200 * KiB) } }));
      }
      for (const run of runs) {
        const done = await pollUntil(t.app, run.statusUrl, isFinal);
        probe.sample();
        expect(done.status).toBe('Failed');
        expect(done.error).toBe("The step 's4' failed: The rendered template is larger than the 1048576 bytes a template may render to.");
        expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded', 'Failed', 'Pending', 'Pending', 'Pending', 'Pending']);
      }
      expect(fake.requests).toHaveLength(15);
      expect(Math.max(...upstreamBytes())).toBeLessThan(MiB);
      // Unbounded, each run reaches 25 MB prompts and keeps 51 MB of outputs: five runs keep 255 MB.
      // Bounded it grows 104-128 MiB alone; under the full suite's parallel load a run reached 150.2
      // (GC lags), so the backstop sits at 200, still well under what the unbounded runs keep.
      expect(probe.peakGrowthMiB()).toBeLessThan(200);
    } finally {
      probe.stop();
    }
  });

  it('fails a step whose own output passes MaxStepOutputBytes, and stops reading the model stream there', async () => {
    reply = () => 'y'.repeat(3 * MiB);
    const probe = startRssProbe();
    try {
      const run = await start(t.app, await submit(t.app, chain('big-output', llmStep('talk', 'say a lot'), toolStep('after'))));
      const done = await pollUntil(t.app, run.statusUrl, isFinal);
      expect(done.status).toBe('Failed');
      expect(done.steps[0]).toMatchObject({ status: 'Failed', error: 'The step output is larger than the 1048576 bytes a step may keep.', output: null });
      expect(done.steps[1].status).toBe('Pending');
      expect(probe.peakGrowthMiB()).toBeLessThan(100);
    } finally {
      probe.stop();
    }
  });

  it('fails the step that would pass MaxRunOutputBytes, sub-plan outputs counted as the poll body repeats them', async () => {
    reply = () => 'z'.repeat(700 * KiB);
    const probe = startRssProbe();
    try {
      const child = await submit(t.app, chain('child', llmStep('talk', 'say it')));
      const parent = await submit(t.app, chain('fan-out', ...Array.from({ length: 8 }, (_, i) => subPlanStep(`sub${i}`, child))));
      const done = await pollUntil(t.app, (await start(t.app, parent)).statusUrl, isFinal);
      expect(done.status).toBe('Failed');
      // Each sub-plan keeps 700 KiB twice (its child's step and its own output): the third passes 4 MiB.
      expect(done.error).toBe("The step 'sub2' failed: The run's step outputs would pass the 4194304 bytes a run may keep.");
      const kept = done.steps.filter((s: { output: unknown }) => s.output !== null).length;
      expect(kept).toBe(5);
      expect(Buffer.byteLength(JSON.stringify(done))).toBeLessThan(4 * MiB + 64 * KiB);
      expect(probe.peakGrowthMiB()).toBeLessThan(100);
    } finally {
      probe.stop();
    }
  });

  it('refuses at start (400) ToolUse parameters that the input alone renders past the bound', async () => {
    const workflowId = await submit(t.app, chain('params', toolStep('q', 'json', 'query', { data: ['{{ input.x }}', '{{ input.x }}'], expression: 'length(@)' })));
    const ok = await start(t.app, workflowId, { input: { x: 'x'.repeat(400 * KiB) } });
    expect((await pollUntil(t.app, ok.statusUrl, isFinal)).status).toBe('Succeeded');
    const res = await t.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs`, payload: { input: { x: 'x'.repeat(600 * KiB) } } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toBe("With this input, step 'q' renders a template larger than the 1048576 bytes a template may render to.");
  });

  it('keeps a step error that names a caller-chosen field to an excerpt, marked as cut', async () => {
    const workflowId = await submit(t.app, chain('loud-error', toolStep('fetch', 'http_fetch', 'get', { url: 'http://127.0.0.1:9/', headers: '{{ input.headers }}' })));
    const run = await start(t.app, workflowId, { input: { headers: { [`X-${'n'.repeat(900_000)}`]: 5 } } });
    const done = await pollUntil(t.app, run.statusUrl, isFinal);
    expect(done.steps[0].error).toMatch(/^The tool parameters are invalid: .*parameters\/headers\/X-n+…$/);
    expect(Buffer.byteLength(done.steps[0].error as string)).toBeLessThan(4096 + 64);
    expect(Buffer.byteLength(JSON.stringify(done))).toBeLessThan(16 * KiB);
  });
});
