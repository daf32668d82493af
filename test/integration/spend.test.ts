// DESIGN §16 spend limits, on both providers, with a real OpenAI-compatible server on loopback that
// reports usage: every call costs exactly $0.004 (4,000 input tokens at $1 a million). Each family
// stops at the limit — the call that crosses it completes, the next is refused caller-safely —; a
// run's own limit; the day rolling over on the injected clock; roles combining to the smallest and a
// subject entry winning; GET /api/spend before and after; the spend.threshold audit line and webhook
// once per period; the metric without owner labels; two instances spending for one owner at once
// overshoot by no more than the calls in flight; and no limit configured changes nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { eventually } from '../helpers/eventually.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { bundleZip, multipart } from './bundles-harness.js';
import { writeDatasets } from './evals-harness.js';
import { chain, llmStep } from './workflows-harness.js';

type Headers = Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- poll bodies are asserted field by field
type Body = { readonly [field: string]: any };

const CALL_USD = 0.004;
const LIMIT = 'The spend limit was reached.';
const EVALS = 'Harness.Evals.Execute';
const START = Date.parse('2026-05-04T10:00:00Z');

const envelope = (budget?: Record<string, number>) => ({
  AllowedTools: ['clock'],
  AutonomyCeiling: 'Autonomous',
  ...(budget === undefined ? {} : { Budget: budget }),
});

describe('spend limits', () => {
  let idp: DevIdp;
  let fake: FakeOpenAIServer;
  let receiver: WebhookReceiver;
  let temp: string;
  const clock = new ManualClock(START);
  const open: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    idp = await startTestIdp();
    fake = await startFakeOpenAIServer(() => ({ ...openAIText('fine'), usage: { promptTokens: 4_000, completionTokens: 0 } }));
    receiver = await startWebhookReceiver();
    temp = await mkdtemp(join(tmpdir(), 'portcullis-spend-'));
    await writeDatasets(join(temp, 'datasets'), {
      'five.jsonl': [1, 2, 3, 4, 5].map((n) => JSON.stringify({ id: `case-${n}`, input: `question ${n}`, assert: [{ type: 'icontains', value: 'fine' }] })).join('\n'),
    });
  });
  afterAll(async () => {
    await fake.close();
    await receiver.close();
    await idp.close();
    await rm(temp, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  const settings = (envelopes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    merge(
      idpSettings(idp, {
        BundleExecution: { Enabled: true, TempRoot: join(temp, 'staging'), Envelopes: envelopes },
        ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'fake', ApiKey: 'sk-test', Pricing: { InputPerMillionTokens: 1, OutputPerMillionTokens: 1 } },
        Evaluation: { Enabled: true, DatasetRoots: [join(temp, 'datasets')] },
        RateLimits: Object.fromEntries(
          ['bundles-register', 'bundles-runs', 'bundles-poll', 'workflows-write', 'workflows-read', 'evals-write', 'evals-read', 'tools-read', 'webhooks-write', 'webhooks-read'].map((p) => [
            p,
            { PermitsPerMinute: 100_000 },
          ]),
        ),
      }),
      { AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.02' } } },
      extra,
    );

  /** One deployment: `count` instances on one storage, one injected clock, one captured log. */
  async function deploy(envelopes: Record<string, unknown>, count = 1): Promise<{ apps: TestApp[]; log: LogCapture; storage: TestStorage }> {
    const storage = await openSharedTestStorage(clock);
    open.push({ close: () => storage.dispose() });
    const log = captureLog();
    const apps: TestApp[] = [];
    for (let i = 0; i < count; i += 1) {
      const t = await buildTestApp({
        environment: 'Production',
        settings: settings(envelopes),
        deps: { storage: storage.storage, clock, instanceId: `spend-${i}`, logger: createLogger({ level: 'info', destination: log.destination }) },
      });
      open.push(t);
      apps.push(t);
    }
    return { apps, log, storage };
  }

  /** A token valid on the injected clock (May 2026) for the whole test, whatever the real date. */
  async function as(sub: string, roles: string[] = []): Promise<Headers> {
    const issued = Math.floor(START / 1000) - 3_600;
    return bearer(await idp.mintToken({ sub, roles, iat: issued, nbf: issued, exp: issued + 7 * 86_400 }));
  }

  const get = async (t: TestApp, url: string, headers: Headers): Promise<Body> => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  async function bundleRun(t: TestApp, headers: Headers, messages: string[]): Promise<Body> {
    const upload = multipart(bundleZip());
    const registered = await t.app.inject({ method: 'POST', url: '/api/bundles', payload: upload.payload, headers: { ...headers, ...upload.headers } });
    expect(registered.statusCode, registered.body).toBe(201);
    const { handle } = registered.json<{ handle: string }>();
    const started = await t.app.inject({ method: 'POST', url: `/api/bundles/${handle}/runs`, headers, payload: { userMessages: messages, maxTurns: messages.length } });
    expect(started.statusCode, started.body).toBe(202);
    const { jobId } = started.json<{ jobId: string }>();
    return eventually(async () => {
      const run = await get(t, `/api/bundles/${handle}/runs/${jobId}`, headers);
      return run.status === 'Succeeded' || run.status === 'Failed' ? run : undefined;
    }, 20_000);
  }

  const callsSince = (before: number) => fake.requests.length - before;

  it('stops a bundle run gracefully at the day limit: the crossing call completes, the next is refused', async () => {
    clock.set(START);
    const { apps, log } = await deploy({ Default: envelope(), ByRole: { Capped: envelope({ MaxUsdPerDay: 0.01 }) } });
    const [t] = apps;
    const alice = await as('alice', ['Capped']);
    const before = await get(t!, '/api/spend', alice);
    expect(before).toEqual({
      currency: 'USD',
      limits: { perRun: null, perDay: 0.01, perMonth: null },
      day: { spentUsd: 0, resetsAt: '2026-05-05T00:00:00.000Z' },
      month: { spentUsd: 0, resetsAt: '2026-06-01T00:00:00.000Z' },
    });

    const calls = fake.requests.length;
    const run = await bundleRun(t!, alice, ['one', 'two', 'three', 'four', 'five']);
    expect(run.status).toBe('Succeeded');
    expect(run.result).toEqual({ conversationSucceeded: true, finalResponse: 'fine', turnCount: 4, totalToolInvocations: 0, budgetExhausted: true, conversationError: LIMIT });
    expect(callsSince(calls)).toBe(3); // $0.004, $0.008, $0.012 (crosses and completes), then refused
    expect(run.usage).toEqual({ inputTokens: 12_000, outputTokens: 0, costUsd: 0.012 });

    const after = await get(t!, '/api/spend', alice);
    expect(after.day.spentUsd).toBeCloseTo(0.012, 9);
    expect(after.month.spentUsd).toBeCloseTo(0.012, 9);
    // 80 % ($0.008) was crossed by the second call: one audit line for the day.
    expect(log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'spend.threshold')).toEqual([
      expect.objectContaining({ owner: 'sub:alice', period: 'day', periodKey: 'day:2026-05-04', limitUsd: 0.01, spentUsd: 0.008, family: 'bundle' }),
    ]);

    // Another caller is counted apart.
    const bob = await as('bob', ['Capped']);
    expect((await get(t!, '/api/spend', bob)).day.spentUsd).toBe(0);
  });

  it('fails a workflow’s LlmCall step with the refusal once the limit is reached', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerDay: 0.01 }) });
    const [t] = apps;
    const carol = await as('carol');
    const definition = chain('four calls', llmStep('a', 'one'), llmStep('b', 'two'), llmStep('c', 'three'), llmStep('d', 'four'));
    const submitted = await t!.app.inject({ method: 'POST', url: '/api/workflows', headers: carol, payload: definition });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const workflowId = submitted.json<{ id: string }>().id;
    const calls = fake.requests.length;
    const started = await t!.app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs`, headers: carol, payload: {} });
    expect(started.statusCode, started.body).toBe(202);
    const statusUrl = started.headers.location as string;
    const run = await eventually(async () => {
      const body = await get(t!, statusUrl, carol);
      return ['Succeeded', 'Failed'].includes(body.status as string) ? body : undefined;
    }, 20_000);
    expect(run.status).toBe('Failed');
    expect((run.steps as Body[]).map((step): unknown[] => [step.name, step.status, step.error ?? null])).toEqual([
      ['a', 'Succeeded', null],
      ['b', 'Succeeded', null],
      ['c', 'Succeeded', null],
      ['d', 'Failed', LIMIT],
    ]);
    expect(callsSince(calls)).toBe(3);
  });

  it('errors an eval run’s remaining cases with the refusal', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerDay: 0.01 }) });
    const [t] = apps;
    const dave = await as('dave', [EVALS]);
    const started = await t!.app.inject({ method: 'POST', url: '/api/evals/runs', headers: dave, payload: { datasets: ['five'], parallelism: 1 } });
    expect(started.statusCode, started.body).toBe(202);
    const { jobId } = started.json<{ jobId: string }>();
    const run = await eventually(async () => {
      const body = await get(t!, `/api/evals/runs/${jobId}`, dave);
      return body.status === 'Succeeded' || body.status === 'Failed' ? body : undefined;
    }, 20_000);
    expect(run.counts).toMatchObject({ total: 5, passed: 3, errored: 2 });
    // The JUnit report names each errored case with its reason.
    const junit = await t!.app.inject({ method: 'GET', url: `/api/evals/runs/${jobId}/report.xml`, headers: dave });
    expect(junit.statusCode).toBe(200);
    const errored = [...junit.body.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>\s*<error [^>]*message="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(errored).toEqual([
      ['case-4', LIMIT],
      ['case-5', LIMIT],
    ]);
  });

  it('limits one run by MaxUsdPerRun, leaving the next run its own', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerRun: 0.006 }) });
    const [t] = apps;
    const erin = await as('erin');
    for (let i = 0; i < 2; i += 1) {
      const run = await bundleRun(t!, erin, ['one', 'two', 'three']);
      expect(run.result).toMatchObject({ turnCount: 3, budgetExhausted: true, conversationError: LIMIT });
      expect(run.usage.costUsd).toBeCloseTo(0.008, 9);
    }
    expect((await get(t!, '/api/spend', erin)).day.spentUsd).toBeCloseTo(0.016, 9);
  });

  it('refuses at once when the day is spent, and counts afresh once the UTC day rolls over (month carries on)', async () => {
    clock.set(Date.parse('2026-05-04T23:59:00Z'));
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerDay: 0.004 }) });
    const [t] = apps;
    const frank = await as('frank');
    expect((await bundleRun(t!, frank, ['one', 'two'])).result).toMatchObject({ turnCount: 2, budgetExhausted: true, conversationError: LIMIT });
    const calls = fake.requests.length;
    expect((await bundleRun(t!, frank, ['again'])).result).toEqual({
      conversationSucceeded: true,
      finalResponse: '',
      turnCount: 1,
      totalToolInvocations: 0,
      budgetExhausted: true,
      conversationError: LIMIT,
    });
    expect(callsSince(calls)).toBe(0);

    clock.set(Date.parse('2026-05-05T00:00:30Z'));
    const spend = await get(t!, '/api/spend', frank);
    expect(spend.day).toEqual({ spentUsd: 0, resetsAt: '2026-05-06T00:00:00.000Z' });
    expect(spend.month.spentUsd).toBeCloseTo(0.004, 9);
    expect((await bundleRun(t!, frank, ['new day'])).result).toMatchObject({ conversationSucceeded: true, budgetExhausted: false, conversationError: null, finalResponse: 'fine' });
  });

  it('combines roles to the smallest limit, lets a subject entry win, and shows both in capabilities and spend', async () => {
    clock.set(START);
    const { apps } = await deploy({
      Default: envelope(),
      BySubject: { boss: envelope({ MaxUsdPerMonth: 500 }) },
      ByRole: { Team: envelope({ MaxUsdPerRun: 2, MaxUsdPerDay: 50 }), Interns: envelope({ MaxUsdPerDay: 0.01, MaxUsdPerMonth: 10 }) },
    });
    const [t] = apps;
    const intern = await as('gina', ['Team', 'Interns']);
    expect((await get(t!, '/api/capabilities', intern)).budget).toEqual({ maxUsdPerRun: 2, maxUsdPerDay: 0.01, maxUsdPerMonth: 10 });
    expect((await get(t!, '/api/spend', intern)).limits).toEqual({ perRun: 2, perDay: 0.01, perMonth: 10 });
    const boss = await as('boss', ['Interns']);
    expect((await get(t!, '/api/capabilities', boss)).budget).toEqual({ maxUsdPerRun: null, maxUsdPerDay: null, maxUsdPerMonth: 500 });
    expect((await get(t!, '/api/spend', boss)).limits).toEqual({ perRun: null, perDay: null, perMonth: 500 });
  });

  it('sends spend.threshold as a signed webhook once per period, and counts spend by family and model without owner labels', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerDay: 0.01, MaxUsdPerMonth: 1 }) });
    const [t] = apps;
    const hank = await as('hank');
    const hook = await t!.app.inject({ method: 'POST', url: '/api/webhooks', headers: hank, payload: { url: receiver.url, events: ['spend.threshold'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const verifier = new Webhook(hook.json<{ secret: string }>().secret);
    receiver.received.length = 0;
    await bundleRun(t!, hank, ['one', 'two', 'three', 'four']);
    await bundleRun(t!, hank, ['more']);

    const [delivered] = await eventually(async () => (receiver.received.length >= 1 ? receiver.received : undefined));
    const timestamp = Number(delivered!.headers['webhook-timestamp']);
    expect(Math.abs(timestamp * 1000 - clock.now())).toBeLessThan(60_000);
    const realNow = Date.now;
    Date.now = () => timestamp * 1000;
    try {
      const event = verifier.verify(delivered!.body, delivered!.headers as Record<string, string>) as Body;
      expect(event).toMatchObject({ type: 'spend.threshold', data: { period: 'day', status: 'ThresholdCrossed', url: '/api/spend' } });
    } finally {
      Date.now = realNow;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1); // the month's 80 % ($0.80) is far away; the day's was announced once

    const metrics = (await t!.app.inject({ method: 'GET', url: '/metrics' })).body;
    const sample = metrics.split('\n').find((line) => line.startsWith('portcullis_spend_usd_total{'));
    expect(sample).toMatch(/^portcullis_spend_usd_total\{family="bundle",model="fake"\} 0\.012/);
    expect(metrics).not.toContain('sub:hank');
  });

  it('keeps two instances spending for one owner at once within the limit plus the calls in flight', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope({ MaxUsdPerDay: 0.01 }) }, 2);
    const ivan = await as('ivan');
    const calls = fake.requests.length;
    // Each instance runs one-turn runs one after another: at most two calls are in flight at once.
    const results = await Promise.all(
      apps.map(async (t) => {
        const runs: Body[] = [];
        for (let i = 0; i < 5; i += 1) runs.push(await bundleRun(t, ivan, ['go']));
        return runs;
      }),
    );
    const refused = results.flat().filter((run) => run.result.conversationError === LIMIT);
    const spent = (await get(apps[0]!, '/api/spend', ivan)).day.spentUsd as number;
    expect(spent).toBeCloseTo(callsSince(calls) * CALL_USD, 9);
    expect(spent).toBeGreaterThanOrEqual(0.01);
    expect(spent).toBeLessThan(0.01 + 2 * CALL_USD + 1e-9);
    expect(refused.length).toBe(10 - callsSince(calls));
    expect(refused.length).toBeGreaterThanOrEqual(5);
  });

  it('changes nothing where no limit is configured: every call is made, and spend is still counted', async () => {
    clock.set(START);
    const { apps } = await deploy({ Default: envelope() });
    const [t] = apps;
    const jill = await as('jill');
    const calls = fake.requests.length;
    const run = await bundleRun(t!, jill, ['one', 'two', 'three', 'four', 'five']);
    expect(run.result).toEqual({ conversationSucceeded: true, finalResponse: 'fine', turnCount: 5, totalToolInvocations: 0, budgetExhausted: false, conversationError: null });
    expect(callsSince(calls)).toBe(5);
    const spend = await get(t!, '/api/spend', jill);
    expect(spend.limits).toEqual({ perRun: null, perDay: null, perMonth: null });
    expect(spend.day.spentUsd).toBeCloseTo(0.02, 9);
  });
});
