// Issue 35, items 1–2, through the HTTP API on both providers: one owner whose receiver accepts every
// connection and never answers cannot hold back another owner's deliveries. Its attempts take at most
// half the instance's 32 slots, and the other owner's event is delivered while every one of them still
// hangs (none has ended: the 10 s attempt timeout has not passed for any).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { eventually } from '../helpers/eventually.js';
import { startHangingServer, type HangingServer } from '../helpers/hanging-server.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

type Headers = Record<string, string>;
const FAST = Object.fromEntries(['webhooks-write', 'webhooks-read'].map((p) => [p, { PermitsPerMinute: 100_000 }]));

describe('webhook delivery with one owner’s receiver hanging', () => {
  let idp: DevIdp;
  let t: TestApp;
  let hanging: HangingServer;
  let receiver: WebhookReceiver;
  let alice: Headers;
  let mallory: Headers;

  beforeAll(async () => {
    idp = await startTestIdp();
    hanging = await startHangingServer();
    receiver = await startWebhookReceiver();
    t = await buildTestApp({
      environment: 'Production',
      deps: { chatModel: null },
      settings: merge(idpSettings(idp, { RateLimits: FAST, BundleExecution: { Auth: { AnonymousRoles: [] } } }), {
        AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.02' } },
      }),
    });
    alice = bearer(await idp.mintToken({ sub: 'alice' }));
    mallory = bearer(await idp.mintToken({ sub: 'mallory' }));
  });
  afterAll(async () => {
    await t.close();
    await hanging.close();
    await receiver.close();
    await idp.close();
  });

  const post = async (headers: Headers, url: string, payload?: Record<string, unknown>) => {
    const answer = await t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json<{ id: string; secret: string }>();
  };
  const deliveries = async (headers: Headers, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries?limit=100`, headers })).json<{ deliveries: Array<{ status: string; attempt: number }> }>()
      .deliveries;

  it('delivers another owner’s event while the hanging owner holds at most half the slots, none of its attempts ended', async () => {
    const stalled = await post(mallory, '/api/webhooks', { url: hanging.url, events: ['approval.requested'] });
    for (let i = 0; i < 40; i += 1) await post(mallory, `/api/webhooks/${stalled.id}/test`);
    // Every slot it may take is taken, and no more: 16 of 32.
    await eventually(async () => (hanging.waiting() >= 16 ? true : undefined));

    const good = await post(alice, '/api/webhooks', { url: receiver.url, events: ['approval.requested'] });
    await post(alice, `/api/webhooks/${good.id}/test`);
    const [arrived] = await eventually(async () => (receiver.received.length > 0 ? receiver.received : undefined));
    expect((new Webhook(good.secret).verify(arrived!.body, arrived!.headers as Record<string, string>) as { type: string }).type).toBe('webhook.test');

    // Nothing of mallory's ended before alice's delivery: all 40 still at attempt 0, 16 of them in flight.
    const held = await deliveries(mallory, stalled.id);
    expect(held).toHaveLength(40);
    expect(held.every((delivery) => delivery.status === 'Pending' && delivery.attempt === 0)).toBe(true);
    expect(hanging.waiting()).toBe(16);
    const [delivered] = await eventually(async () => {
      const found = await deliveries(alice, good.id);
      return found[0]?.status === 'Delivered' ? found : undefined;
    });
    expect(delivered).toMatchObject({ status: 'Delivered', attempt: 1 });
  });
});
