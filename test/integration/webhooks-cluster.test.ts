// DESIGN §14 across instances (real `portcullis serve` processes on one PostgreSQL): an instance is
// SIGKILLed while its webhook deliveries are in flight (the receiver holds every request) and others
// are queued; another instance then delivers every event — each event's `webhook-id` the same on every
// attempt, every delivery Delivered, every signature valid under the `standardwebhooks` verifier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { freshPostgres, type FreshPostgres } from '../helpers/postgres.js';
import { api, chain, Cluster, crashLines, eventually, FINAL, HoldingModel, isStatus, startWorkflow, submit } from '../helpers/serve-cluster.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const LEASE_SECONDS = 2;
const WEBHOOKS = { AppConfig__Webhooks__AllowedHosts__0: '127.0.0.1', AppConfig__Webhooks__PollInterval: '00:00:00.05' };

let model: HoldingModel;
let database: FreshPostgres;
let cluster: Cluster;
let receiver: WebhookReceiver;

beforeAll(async () => {
  model = await new HoldingModel().start();
  receiver = await startWebhookReceiver();
  database = freshPostgres('webhooks');
  cluster = new Cluster({ database, model, leaseSeconds: LEASE_SECONDS });
});
afterAll(async () => {
  await cluster?.killAll();
  await receiver?.close();
  await model?.close();
  await database?.drop();
});

// Two instances started one after the other, one killed, a receiver held and released: 7 s alone, past
// vitest's 20 s beside a second suite run (load 6–11).
describe('webhook deliveries when an instance is SIGKILLed (PostgreSQL)', () => {
  it('delivers every event after the instance that was delivering them died, each webhook-id stable across attempts', async () => {
    const a = await cluster.serve('a', WEBHOOKS);
    const created = await api(a.url, 'POST', '/api/webhooks', { url: receiver.url, events: ['workflow.run.finished'] });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as { id: string; secret: string };

    receiver.hold();
    // Events from state changes (workflow runs finishing) and test events, all caused through A.
    const runs: string[] = [];
    for (let i = 0; i < 4; i += 1) runs.push(await startWorkflow(a.url, await submit(a.url, chain(`echo-${i}`, ['only', 'say hello']))));
    for (const statusUrl of runs) await eventually(() => api(a.url, 'GET', statusUrl), isStatus(...FINAL));
    for (let i = 0; i < 6; i += 1) expect((await api(a.url, 'POST', `/api/webhooks/${id}/test`)).status).toBe(202);
    // A has attempts in flight (held by the receiver): kill it mid-attempt.
    await eventually(async () => receiver.received.length, (n) => n >= 1);
    a.process.child.kill('SIGKILL');
    await a.exited;
    const heldByA = receiver.received.length;
    receiver.release();

    const b = await cluster.serve('b', WEBHOOKS);
    const deliveries = await eventually(
      async () => ((await api(b.url, 'GET', `/api/webhooks/${id}/deliveries?limit=200`)).body as { deliveries: Array<{ eventId: string; status: string; type: string }> }).deliveries,
      (found) => found.length === 10 && found.every((d) => d.status === 'Delivered'),
      30_000,
    );
    expect(deliveries.filter((d) => d.type === 'workflow.run.finished')).toHaveLength(4);
    expect(deliveries.filter((d) => d.type === 'webhook.test')).toHaveLength(6);

    const verifier = new Webhook(secret);
    const attemptsById = new Map<string, string[]>();
    for (const request of receiver.received) {
      verifier.verify(request.body, request.headers as Record<string, string>);
      const eventId = String(request.headers['webhook-id']);
      attemptsById.set(eventId, [...(attemptsById.get(eventId) ?? []), request.body]);
    }
    // Every event arrived; the ones A was attempting when it died came again from B with the same id and body.
    expect([...attemptsById.keys()].sort()).toEqual(deliveries.map((d) => d.eventId).sort());
    for (const bodies of attemptsById.values()) expect(new Set(bodies).size).toBe(1);
    // What A had in flight (never answered) was attempted again: as many repeats as A had held.
    expect(heldByA).toBeGreaterThan(0);
    expect([...attemptsById.values()].filter((bodies) => bodies.length >= 2).length).toBeGreaterThanOrEqual(heldByA);
    expect(crashLines(b.stderr())).toEqual([]);
  }, 60_000);
});
