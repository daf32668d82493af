// DESIGN §14 webhooks through the HTTP API, on both storage providers: subscriptions (secret shown once,
// owner-scoped, at most 20, unknown events and hosts refused), Standard Webhooks deliveries verified with
// the `standardwebhooks` package (never with the code that signs), the retry schedule on the injected
// clock, thin events written by real state changes (a workflow run with a gate and its approval), the
// deliveries log, and the destination policy against hostile URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { eventually } from '../helpers/eventually.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { withoutIdEcho } from '../helpers/problem-body.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { chain, gateStep, isFinal, pollUntil, start, statusIs, submit } from './workflows-harness.js';

type Headers = Record<string, string>;
const FAST = Object.fromEntries(['webhooks-write', 'webhooks-read', 'workflows-write', 'workflows-read'].map((p) => [p, { PermitsPerMinute: 100_000 }]));
const POLL = '00:00:00.02';

/** Checks the delivery as a receiver would, with the Standard Webhooks reference verifier. */
function verified(secret: string, received: ReceivedWebhook): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** Lets several dispatcher polls pass (real time), for assertions that nothing happened. */
const polls = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 250));

describe('webhooks', () => {
  let idp: DevIdp;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let alice: Headers;
  let mallory: Headers;
  let collector: Headers;
  let wfOwner: Headers;
  let oddUrls: Headers;
  let normalised: Headers;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    idp = await startTestIdp();
    receiver = await startWebhookReceiver();
    t = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: null, clock },
      settings: merge(idpSettings(idp, { RateLimits: FAST, BundleExecution: { Auth: { AnonymousRoles: [] } } }), {
        AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: POLL } },
      }),
    });
    alice = bearer(await idp.mintToken({ sub: 'alice' }));
    mallory = bearer(await idp.mintToken({ sub: 'mallory' }));
    collector = bearer(await idp.mintToken({ sub: 'collector' }));
    wfOwner = bearer(await idp.mintToken({ sub: 'wf-owner' }));
    oddUrls = bearer(await idp.mintToken({ sub: 'odd-urls' }));
    normalised = bearer(await idp.mintToken({ sub: 'normalised-urls' }));
    // Tokens are judged on the injected clock (zero skew): it starts after they were issued.
    clock.set(Date.now() + 1_000);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await idp.close();
  });

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = async (headers: Headers, body: Record<string, unknown>) => {
    const answer = await inject('POST', '/api/webhooks', headers, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<{ id: string; secret: string; url: string; events: string[] }>();
  };
  const deliveries = async (id: string, headers: Headers = alice) => (await inject('GET', `/api/webhooks/${id}/deliveries`, headers)).json<{ deliveries: Array<Record<string, unknown>> }>().deliveries;
  /** The webhook's newest delivery, once it meets `done`. */
  const newestDelivery = (id: string, done: (delivery: Record<string, unknown>) => boolean) =>
    eventually(async () => {
      const [newest] = await deliveries(id);
      return newest !== undefined && done(newest) ? newest : undefined;
    });
  const receivedFor = (webhookSecret: string) => receiver.received.filter((r) => {
    try {
      verified(webhookSecret, r);
      return true;
    } catch {
      return false;
    }
  });

  it('creates a subscription whose whsec_ secret is answered once, lists and reads it without the secret, and deletes it', async () => {
    const created = await inject('POST', '/api/webhooks', alice, { url: receiver.url, events: ['workflow.run.finished'], description: 'ops' });
    expect(created.statusCode).toBe(201);
    const body = created.json<Record<string, unknown>>();
    expect(body).toMatchObject({ url: receiver.url, events: ['workflow.run.finished'], description: 'ops' });
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'description', 'events', 'id', 'secret', 'url']);
    expect(created.headers.location).toBe(`/api/webhooks/${body.id as string}`);
    const secret = body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const read = await inject('GET', `/api/webhooks/${body.id as string}`, alice);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ id: body.id, url: receiver.url, events: ['workflow.run.finished'], description: 'ops', createdAt: body.createdAt });
    const listed = (await inject('GET', '/api/webhooks', alice)).json<{ webhooks: unknown[]; nextCursor: null }>();
    expect(listed.webhooks).toContainEqual(read.json());
    expect(JSON.stringify(listed)).not.toContain(secret);

    expect((await inject('DELETE', `/api/webhooks/${body.id as string}`, alice)).statusCode).toBe(204);
    expect((await inject('GET', `/api/webhooks/${body.id as string}`, alice)).statusCode).toBe(404);
  });

  it('answers another caller’s webhook exactly as an unknown one, on every route', async () => {
    const { id } = await create(alice, { url: receiver.url, events: ['approval.requested'] });
    const routes: Array<['GET' | 'POST' | 'DELETE', string]> = [
      ['GET', ''],
      ['GET', '/deliveries'],
      ['POST', '/test'],
      ['DELETE', ''],
    ];
    for (const [method, suffix] of routes) {
      const foreign = await inject(method, `/api/webhooks/${id}${suffix}`, mallory);
      const unknown = await inject(method, `/api/webhooks/no-such-id${suffix}`, mallory);
      expect(foreign.statusCode, `${method} ${suffix}`).toBe(404);
      expect(withoutIdEcho(foreign.body)).toBe(withoutIdEcho(unknown.body));
    }
    expect((await inject('GET', `/api/webhooks/${id}`, alice)).statusCode).toBe(200);
    expect((await inject('GET', '/api/webhooks', mallory)).json()).toEqual({ webhooks: [], nextCursor: null });
  });

  it('refuses an unknown event name and a host that is not allowed with 400 problems, and a 21st subscription with 409', async () => {
    const unknownEvent = await inject('POST', '/api/webhooks', mallory, { url: receiver.url, events: ['run.exploded'] });
    expect(unknownEvent.statusCode).toBe(400);
    expect(unknownEvent.headers['content-type']).toContain('application/problem+json');
    const notAllowed = await inject('POST', '/api/webhooks', mallory, { url: 'https://hooks.example.com/x', events: ['eval.run.finished'] });
    expect(notAllowed.statusCode).toBe(400);
    expect(notAllowed.json()).toMatchObject({ title: 'Validation failed', detail: 'The host "hooks.example.com" is not in AppConfig:Webhooks:AllowedHosts.' });

    const owner = collector;
    for (let i = 0; i < 20; i += 1) await create(owner, { url: receiver.url, events: ['schedule.fired'] });
    const over = await inject('POST', '/api/webhooks', owner, { url: receiver.url, events: ['schedule.fired'] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ title: 'Conflict' });
  });

  it('refuses with 400 a URL with credentials, whitespace, control characters or backslashes, storing nothing', async () => {
    const owner = oddUrls;
    for (const [url, detail] of [
      ['http://127.0.0.1\\@169.254.169.254/', /whitespace, control characters or backslashes/],
      ['http://127.0.0.1/hooks\r\nX-Injected: 1', /whitespace, control characters or backslashes/],
      ['http://127.0.0.1/ho oks', /whitespace/],
      [' http://127.0.0.1/hooks', /whitespace/],
      ['http://127.0.0.1/\thooks', /control characters/],
      ['http://127.0.0.1/hooks\u0085', /control characters/],
      ['\u00a0http://127.0.0.1/hooks', /whitespace/],
      ['http://user@127.0.0.1/hooks', /user name or password/],
      ['http://:pw@127.0.0.1/hooks', /user name or password/],
      ['/hooks', /absolute http or https URL/],
      ['javascript:alert(1)//127.0.0.1', /absolute http or https URL/],
    ] as const) {
      const answer = await inject('POST', '/api/webhooks', owner, { url, events: ['eval.run.finished'] });
      expect(answer.statusCode, JSON.stringify(url)).toBe(400);
      expect(answer.json<{ detail: string }>().detail, JSON.stringify(url)).toMatch(detail);
    }
    expect((await inject('GET', '/api/webhooks', owner)).json()).toEqual({ webhooks: [], nextCursor: null });
  });

  it('keeps the destination in its normalised form and answers it so everywhere', async () => {
    const owner = normalised;
    const created = await create(owner, { url: 'HTTP://0x7f000001:80/a/../hooks/%7e?q=1', events: ['eval.run.finished'] });
    expect(created.url).toBe('http://127.0.0.1/hooks/%7e?q=1');
    expect((await inject('GET', `/api/webhooks/${created.id}`, owner)).json()).toMatchObject({ url: 'http://127.0.0.1/hooks/%7e?q=1' });
    expect((await inject('GET', '/api/webhooks', owner)).json<{ webhooks: Array<{ url: string }> }>().webhooks.map((w) => w.url)).toEqual(['http://127.0.0.1/hooks/%7e?q=1']);
  });

  it('delivers a test event signed per Standard Webhooks and logs the delivery', async () => {
    const { id, secret } = await create(alice, { url: receiver.url, events: ['eval.run.finished'] });
    expect((await inject('POST', `/api/webhooks/${id}/test`, alice)).statusCode).toBe(202);
    const [received] = await eventually(async () => (receivedFor(secret).length > 0 ? receivedFor(secret) : undefined));
    const event = verified(secret, received!);
    expect(event).toEqual({ type: 'webhook.test', timestamp: expect.any(String) as string, data: { webhookId: id, url: `/api/webhooks/${id}` } });
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['webhook-id']).toMatch(/^msg_/);
    const logged = await newestDelivery(id, (d) => d.status === 'Delivered');
    expect(logged).toMatchObject({ eventId: received!.headers['webhook-id'], type: 'webhook.test', attempt: 1, status: 'Delivered', responseStatus: 200, nextAttemptAt: null });
    expect(typeof logged.durationMs).toBe('number');
  });

  it('retries a receiver that answered 500 exactly 5 s later on the injected clock, with the same webhook-id, then logs it Delivered', async () => {
    const { id, secret } = await create(alice, { url: receiver.url, events: ['eval.run.finished'] });
    receiver.script({ status: 500 });
    await inject('POST', `/api/webhooks/${id}/test`, alice);
    const first = await newestDelivery(id, (d) => d.attempt === 1);
    expect(first).toMatchObject({ status: 'Pending', attempt: 1, responseStatus: 500 });
    const failedAt = Date.parse(first.nextAttemptAt as string) - 5_000;
    expect(failedAt).toBeLessThanOrEqual(clock.now());

    clock.set(failedAt + 4_999);
    await polls();
    expect(receivedFor(secret)).toHaveLength(1);
    clock.set(failedAt + 5_000);
    const attempts = await eventually(async () => (receivedFor(secret).length === 2 ? receivedFor(secret) : undefined));
    expect(attempts[1]!.headers['webhook-id']).toBe(attempts[0]!.headers['webhook-id']);
    expect(attempts[1]!.body).toBe(attempts[0]!.body);
    expect(Number(attempts[1]!.headers['webhook-timestamp'])).toBe(Math.floor((failedAt + 5_000) / 1000));
    const done = await newestDelivery(id, (d) => d.status === 'Delivered');
    expect(done).toMatchObject({ attempt: 2, responseStatus: 200, nextAttemptAt: null });
  });

  it('writes thin events with the state changes of a workflow run and its approval: ids, status and URL only', async () => {
    const owner = wfOwner;
    const { secret } = await create(owner, {
      url: receiver.url,
      events: ['workflow.run.blocked', 'workflow.run.finished', 'approval.requested', 'approval.decided'],
    });
    const workflowId = await submit(t.app, chain('gated', gateStep('gate', 'Ship it? secret-prompt-text')), owner);
    const { statusUrl, jobId } = await start(t.app, workflowId, { input: { secretInput: 'never-in-an-event' } }, owner);
    const blocked = await pollUntil(t.app, statusUrl, statusIs('Blocked'), owner);
    const approvalId = blocked.pendingApprovals[0].approvalId as string;
    const decided = await inject('POST', `/api/approvals/${approvalId}/decision`, owner, { decision: 'Approve', comment: 'comment-text' });
    expect(decided.statusCode).toBe(200);
    await pollUntil(t.app, statusUrl, isFinal, owner);

    const events = await eventually(async () => {
      const got = receivedFor(secret).map((r) => verified(secret, r));
      return got.length >= 4 ? got : undefined;
    });
    const byType = new Map(events.map((event) => [event.type, event.data]));
    const runUrl = `/api/workflows/${workflowId}/runs/${jobId}`;
    expect(byType.get('workflow.run.blocked')).toEqual({ workflowId, jobId, status: 'Blocked', url: runUrl });
    expect(byType.get('approval.requested')).toEqual({ approvalId, jobId, workflowId, status: 'Pending', url: `/api/approvals/${approvalId}` });
    expect(byType.get('approval.decided')).toEqual({ approvalId, jobId, workflowId, status: 'Approved', url: `/api/approvals/${approvalId}` });
    expect(byType.get('workflow.run.finished')).toEqual({ workflowId, jobId, status: 'Succeeded', url: runUrl });
    for (const leak of ['secret-prompt-text', 'never-in-an-event', 'comment-text']) expect(JSON.stringify(events)).not.toContain(leak);
    expect(new Set(receivedFor(secret).map((r) => r.headers['webhook-id'])).size).toBe(receivedFor(secret).length);
  });

  it('never follows a redirect: the 3xx is the attempt’s answer and the Location is not contacted', async () => {
    const inner = await startWebhookReceiver();
    try {
      const { id, secret } = await create(alice, { url: receiver.url, events: ['eval.run.finished'] });
      receiver.script({ status: 307, headers: { location: `http://169.254.169.254:${inner.port}/latest/meta-data` } }, { status: 302, headers: { location: inner.url } });
      await inject('POST', `/api/webhooks/${id}/test`, alice);
      expect(await newestDelivery(id, (d) => d.attempt === 1)).toMatchObject({ status: 'Pending', responseStatus: 307 });
      expect(receivedFor(secret)).toHaveLength(1);
      clock.advance(5_000);
      expect(await newestDelivery(id, (d) => d.attempt === 2)).toMatchObject({ status: 'Pending', responseStatus: 302 });
      expect(inner.received).toEqual([]);
    } finally {
      await inner.close();
    }
  });
});

describe('webhook destinations that are not listed by IP', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await buildTestApp({
      settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } }, Webhooks: { AllowedHosts: ['localhost', 'hooks.example.com'], PollInterval: POLL } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('refuses loopback, the metadata address and an IPv4 literal in hex at create (400), none being listed', async () => {
    for (const url of [
      `http://127.0.0.1:${receiver.port}/hooks`,
      `http://[::1]:${receiver.port}/hooks`,
      'http://169.254.169.254/latest/meta-data',
      `http://0x7f000001:${receiver.port}/hooks`,
      'ftp://hooks.example.com/x',
      'https://user:pw@hooks.example.com/x',
    ]) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/webhooks', payload: { url, events: ['eval.run.finished'] } });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('refuses at create an allowed name that resolves to a loopback address, saying why: it could never be delivered', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/webhooks', payload: { url: `http://localhost:${receiver.port}/hooks`, events: ['eval.run.finished'] } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      title: 'Validation failed',
      detail: 'The host "localhost" resolves to a private, loopback or link-local address, which is never delivered to unless AppConfig:Webhooks:AllowedHosts lists that address by IP.',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/webhooks' })).json()).toEqual({ webhooks: [], nextCursor: null });
    await polls();
    expect(receiver.received).toEqual([]);
  });
});
