// DESIGN §14 schedules firing, on both providers, with a fake clock and stepped tickers: two instances
// on one storage fire an hourly schedule exactly once per hour over a simulated day; a daily 02:30 in
// Europe/Paris across spring-forward and fall-back; downtime collapsing into one catch-up fire; fires
// that cannot start (a live run, a deleted workflow, a missing role, a tool not granted) recorded with a reason and a
// schedule.failed line; the schedule.* webhook events, signed; deleting a schedule revokes it; a host
// with schedules off answers 403.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { chain, gateStep, pollUntil, statusIs, submit, toolStep } from './workflows-harness.js';
import { createSchedule, Deployment, firesOf, HOUR, quickWorkflow, settled } from './schedules-harness.js';

let deployment: Deployment | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('a schedule on two instances sharing one storage', () => {
  it('fires exactly once per hour over a simulated day, each fire a started run', async () => {
    const start = Date.parse('2026-05-04T00:10:00Z');
    deployment = await Deployment.open(start, 2);
    const d = deployment;
    const workflowId = await quickWorkflow(d.app);
    const schedule = await createSchedule(d.app, { name: 'hourly', cron: '0 * * * *', target: { workflow: { workflowId } } });
    expect(schedule.nextRunAt).toBe('2026-05-04T01:00:00.000Z');

    // Every 20 simulated minutes for a day, both tickers pass at once; each run finishes before time moves on.
    let seen = 0;
    for (let step = 0; step < 72; step += 1) {
      d.clock.advance(20 * 60_000);
      await d.tick();
      const fires = await firesOf(d.instances[1]!.t.app, schedule.id);
      if (fires.length > seen) {
        seen = fires.length;
        await settled(d.app, workflowId, fires[0]!.jobId!);
      }
    }

    const fires = await firesOf(d.app, schedule.id);
    const expected = Array.from({ length: 24 }, (_, i) => iso(Date.parse('2026-05-05T00:00:00Z') - i * HOUR));
    expect(fires.map((fire) => fire.scheduledFor)).toEqual(expected);
    expect(fires.every((fire) => fire.outcome === 'Started' && typeof fire.jobId === 'string')).toBe(true);
    expect(new Set(fires.map((fire) => fire.jobId)).size).toBe(24);
    expect(d.auditLines('schedule.fired')).toHaveLength(24);
    expect(d.auditLines('schedule.fired')[0]).toMatchObject({ scheduleId: schedule.id, owner: 'anonymous:dev', target: 'workflow', catchUp: false, scheduledFor: '2026-05-04T01:00:00.000Z' });
    const now = (await d.app.inject({ method: 'GET', url: `/api/schedules/${schedule.id}` })).json<{ nextRunAt: string }>();
    expect(now.nextRunAt).toBe('2026-05-05T01:00:00.000Z');
  }, 120_000);
});

describe('a daily 02:30 schedule in Europe/Paris', () => {
  async function firesOver(from: string, hours: number): Promise<string[]> {
    deployment = await Deployment.open(Date.parse(from), 2);
    const d = deployment;
    const workflowId = await quickWorkflow(d.app);
    const schedule = await createSchedule(d.app, { name: 'nightly', cron: '30 2 * * *', timeZone: 'Europe/Paris', target: { workflow: { workflowId } } });
    let seen = 0;
    for (let quarter = 0; quarter < hours * 4; quarter += 1) {
      d.clock.advance(15 * 60_000);
      await d.tick();
      const fires = await firesOf(d.app, schedule.id);
      if (fires.length > seen) {
        seen = fires.length;
        await settled(d.app, workflowId, fires[0]!.jobId!);
      }
    }
    return (await firesOf(d.app, schedule.id)).map((fire) => fire.scheduledFor).reverse();
  }

  it('fires once on the spring-forward day, at 03:00 CEST (the first valid time after the skipped 02:30)', async () => {
    expect(await firesOver('2026-03-28T12:00:00Z', 48)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  }, 120_000);

  it('fires once on the fall-back day, at the first 02:30 (CEST)', async () => {
    expect(await firesOver('2026-10-24T12:00:00Z', 48)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  }, 120_000);
});

describe('downtime', () => {
  it('collapses the fires missed while no instance ran into one catch-up fire for the latest instant', async () => {
    deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 2);
    const d = deployment;
    const workflowId = await quickWorkflow(d.app);
    const schedule = await createSchedule(d.app, { name: 'hourly', cron: '0 * * * *', target: { workflow: { workflowId } } });

    await d.stopAll();
    d.clock.advance(5 * HOUR + 20 * 60_000); // 05:30: the 01:00 … 05:00 fires were missed
    await d.startInstance();
    await d.startInstance();
    await d.tick();
    await d.tick();

    const fires = await firesOf(d.app, schedule.id);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatchObject({ scheduledFor: '2026-05-04T05:00:00.000Z', firedAt: '2026-05-04T05:30:00.000Z', outcome: 'Started' });
    expect(d.auditLines('schedule.fired')).toEqual([expect.objectContaining({ scheduleId: schedule.id, catchUp: true, jobId: fires[0]!.jobId })]);
    const after = (await d.app.inject({ method: 'GET', url: `/api/schedules/${schedule.id}` })).json<{ nextRunAt: string }>();
    expect(after.nextRunAt).toBe('2026-05-04T06:00:00.000Z');
  });
});

describe('a fire that cannot start', () => {
  it('is Skipped while the workflow has a live run, with the reason and a schedule.failed line', async () => {
    deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 1);
    const d = deployment;
    const workflowId = await submit(d.app, chain('gated', gateStep('wait')));
    const schedule = await createSchedule(d.app, { name: 'gated', cron: '0 * * * *', target: { workflow: { workflowId } } });
    d.clock.advance(HOUR);
    await d.tick();
    const [first] = await firesOf(d.app, schedule.id);
    expect(first).toMatchObject({ outcome: 'Started' });
    await pollUntil(d.app, `/api/workflows/${workflowId}/runs/${first!.jobId}`, statusIs('Blocked'));

    d.clock.advance(HOUR);
    await d.tick();
    const [second] = await firesOf(d.app, schedule.id);
    expect(second).toEqual({
      scheduledFor: '2026-05-04T02:00:00.000Z',
      firedAt: '2026-05-04T02:10:00.000Z',
      outcome: 'Skipped',
      reason: 'The workflow already has a live run (Queued, Running or Blocked).',
    });
    expect(d.auditLines('schedule.failed')).toEqual([
      expect.objectContaining({ scheduleId: schedule.id, owner: 'anonymous:dev', outcome: 'Skipped', problem: 'conflict', scheduledFor: '2026-05-04T02:00:00.000Z' }),
    ]);
  });

  it('is Failed when the workflow was deleted, when the owner lacks the role an eval run needs, and when the start refuses the workflow', async () => {
    // The dataset exists (a schedule naming none is refused at create); evaluation itself is off.
    const roots = await mkdtemp(join(tmpdir(), 'portcullis-schedules-'));
    await writeFile(join(roots, 'smoke.jsonl'), '{"id":"one","input":"hello"}\n');
    deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 1, { AppConfig: { AI: { Evaluation: { DatasetRoots: [roots] } } } });
    const d = deployment;
    const workflowId = await quickWorkflow(d.app);
    const gone = await createSchedule(d.app, { name: 'gone', cron: '0 * * * *', target: { workflow: { workflowId } } });
    const evals = await createSchedule(d.app, { name: 'evals', cron: '0 * * * *', target: { eval: { datasets: ['smoke'] } } });
    const ungranted = await submit(d.app, chain('ungranted', toolStep('m', 'memory', 'list')));
    const refused = await createSchedule(d.app, { name: 'refused', cron: '0 * * * *', target: { workflow: { workflowId: ungranted } } });
    expect((await d.app.inject({ method: 'DELETE', url: `/api/workflows/${workflowId}` })).statusCode).toBe(204);
    d.clock.advance(HOUR);
    await d.tick();

    expect(await firesOf(d.app, gone.id)).toEqual([
      expect.objectContaining({ outcome: 'Failed', reason: 'Workflow not found. It may never have existed, was deleted, or belongs to a different caller.' }),
    ]);
    expect(await firesOf(d.app, evals.id)).toEqual([
      expect.objectContaining({ outcome: 'Failed', reason: 'Evaluation runs need the role Harness.Evals.Execute and AppConfig:AI:Evaluation:Enabled set to true.' }),
    ]);
    expect(await firesOf(d.app, refused.id)).toEqual([
      expect.objectContaining({
        outcome: 'Failed',
        reason: "The run cannot start: Step 'm': the tool 'memory' is not one the starting caller's envelope grants; see GET /api/tools. (1 problem, listed in 'diagnostics')",
      }),
    ]);
    expect(d.auditLines('schedule.failed').map((line) => [line['scheduleId'], line['outcome'], line['problem']]).sort()).toEqual(
      [
        [gone.id, 'Failed', 'not-found'],
        [evals.id, 'Failed', 'forbidden'],
        [refused.id, 'Failed', 'validation-failed'],
      ].sort(),
    );
  });
});

describe('the schedule.* webhook events', () => {
  it('sends schedule.fired with the run it started and schedule.failed with the outcome, signed, without the reason', async () => {
    const receiver = await startWebhookReceiver();
    try {
      deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 1, { AppConfig: { Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.02' } } });
      const d = deployment;
      const workflowId = await submit(d.app, chain('gated', gateStep('wait')));
      const hook = await d.app.inject({ method: 'POST', url: '/api/webhooks', payload: { url: receiver.url, events: ['schedule.fired', 'schedule.failed'] } });
      expect(hook.statusCode, hook.body).toBe(201);
      const verifier = new Webhook(hook.json<{ secret: string }>().secret);
      const schedule = await createSchedule(d.app, { name: 'gated', cron: '0 * * * *', target: { workflow: { workflowId } } });
      d.clock.advance(HOUR);
      await d.tick();
      const [first] = await firesOf(d.app, schedule.id);
      await pollUntil(d.app, `/api/workflows/${workflowId}/runs/${first!.jobId}`, statusIs('Blocked'));
      d.clock.advance(HOUR);
      await d.tick(); // the gated run is still live: Skipped

      const events = await eventually(async () => (receiver.received.length >= 2 ? receiver.received : undefined));
      // Timestamps are the injected clock's (2026-05-04, an hour apart): each is verified on a Date set to its own.
      vi.useFakeTimers({ toFake: ['Date'] });
      const bodies = events.map((received) => {
        vi.setSystemTime(Number(received.headers['webhook-timestamp']) * 1000);
        return verifier.verify(received.body, received.headers as Record<string, string>) as { type: string; data: unknown };
      });
      expect(bodies.map((body) => [body.type, body.data])).toEqual([
        ['schedule.fired', { scheduleId: schedule.id, jobId: first!.jobId, workflowId, status: 'Started', url: `/api/workflows/${workflowId}/runs/${first!.jobId}` }],
        ['schedule.failed', { scheduleId: schedule.id, workflowId, status: 'Skipped', url: `/api/schedules/${schedule.id}/fires` }],
      ]);
      expect(events.map((received) => received.body).join('')).not.toContain('live run');
    } finally {
      vi.useRealTimers();
      await receiver.close();
    }
  });
});

describe('deleting a schedule', () => {
  it('revokes it: it never fires again', async () => {
    deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 2);
    const d = deployment;
    const workflowId = await quickWorkflow(d.app);
    const schedule = await createSchedule(d.app, { name: 'hourly', cron: '0 * * * *', target: { workflow: { workflowId } } });
    expect((await d.app.inject({ method: 'DELETE', url: `/api/schedules/${schedule.id}` })).statusCode).toBe(204);
    d.clock.advance(3 * HOUR);
    await d.tick();
    expect(d.auditLines('schedule.fired')).toEqual([]);
    const runs = (await d.app.inject({ method: 'GET', url: `/api/workflows/runs?workflowId=${workflowId}` })).json<{ runs: unknown[] }>();
    expect(runs.runs).toEqual([]);
    expect((await d.app.inject({ method: 'GET', url: `/api/schedules/${schedule.id}/fires` })).statusCode).toBe(404);
  });
});

describe('with AppConfig:Schedules:Enabled false', () => {
  it('answers every schedule route 403, saying the surface is off', async () => {
    deployment = await Deployment.open(Date.parse('2026-05-04T00:10:00Z'), 0);
    const { t } = await deployment.startInstance({ AppConfig: { Schedules: { Enabled: false } } });
    const requests = [
      { method: 'POST', url: '/api/schedules', payload: { name: 'n', cron: '0 * * * *', target: { workflow: { workflowId: 'w' } } } },
      { method: 'GET', url: '/api/schedules' },
      { method: 'GET', url: '/api/schedules/any' },
      { method: 'PATCH', url: '/api/schedules/any', payload: { name: 'm' } },
      { method: 'DELETE', url: '/api/schedules/any' },
      { method: 'GET', url: '/api/schedules/any/fires' },
    ] as const;
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
      expect(res.json().detail).toBe('Schedules are turned off on this host (AppConfig:Schedules:Enabled is false).');
    }
  });
});
