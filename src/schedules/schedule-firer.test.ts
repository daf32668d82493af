import { describe, expect, it } from 'vitest';
import { NO_AUDIT } from '../platform/audit/index.js';
import { ManualClock } from '../platform/clock/index.js';
import type { EventOutbox, ResourceEvent } from '../platform/outbox/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { createMemoryStorage } from '../platform/storage/index.js';
import { ScheduleFirer } from './schedule-firer.js';
import type { ScheduleData } from './schedule-record.js';
import { ScheduleStore } from './schedule-store.js';
import type { ScheduleTargets } from './schedule-targets.js';

const HOUR = 3_600_000;
const silent = { warn: () => undefined };

function setup(start = Date.parse('2026-05-04T00:10:00Z')) {
  const clock = new ManualClock(start);
  const store = new ScheduleStore({ storage: createMemoryStorage({ clock }) });
  const started: string[] = [];
  let refuse: Error | undefined;
  const targets: Pick<ScheduleTargets, 'startWorkflow' | 'startEval'> = {
    startWorkflow: async (runAs, workflowId) => {
      if (refuse !== undefined) throw refuse;
      started.push(`${runAs.ownerId}:${workflowId}`);
      return { jobId: `job-${started.length}` };
    },
    startEval: () => Promise.reject(new Error('not used')),
  };
  const events: ResourceEvent[] = [];
  const outbox: EventOutbox = { entriesFor: async (event) => (events.push(event), []) };
  const firer = () => new ScheduleFirer({ store, targets, clock, audit: NO_AUDIT, events: outbox, fireRetentionMs: 7 * 24 * HOUR, log: silent });
  const schedule: ScheduleData = {
    id: 's-1',
    name: 'hourly',
    cron: '0 * * * *',
    timeZone: 'UTC',
    target: { workflow: { workflowId: 'w-1' } },
    enabled: true,
    nextRunAt: Date.parse('2026-05-04T01:00:00Z'),
    createdAt: start,
    runAs: { ownerClaimValue: 'alice', subjectId: 'alice', roles: [], displayName: null, anonymous: false },
  };
  return { clock, store, started, events, firer, schedule, refuseWith: (error: Error) => (refuse = error) };
}

describe('ScheduleFirer', () => {
  it('starts one run when two instances fire the same due schedule from the same read', async () => {
    const { clock, store, started, events, firer, schedule } = setup();
    await store.create('sub:alice', schedule, 50);
    clock.advance(HOUR);
    const due = await store.due(10);
    expect(due).toHaveLength(1);
    await Promise.all([firer().fire(due[0]!), firer().fire(due[0]!)]);
    expect(started).toEqual(['sub:alice:w-1']);
    expect(events).toEqual([
      { type: 'schedule.fired', ownerId: 'sub:alice', data: { scheduleId: 's-1', jobId: 'job-1', workflowId: 'w-1', status: 'Started', url: '/api/workflows/w-1/runs/job-1' } },
    ]);
    expect(await store.due(10)).toEqual([]);
    expect((await store.get({ ownerId: 'sub:alice' }, 's-1'))?.data.nextRunAt).toBe(Date.parse('2026-05-04T02:00:00Z'));
  });

  it('never fires an instant twice, even when the alarm is set back to it', async () => {
    const { clock, store, started, firer, schedule } = setup();
    await store.create('sub:alice', schedule, 50);
    clock.advance(HOUR);
    await firer().fire((await store.due(10))[0]!);
    const current = (await store.get({ ownerId: 'sub:alice' }, 's-1'))!;
    await store.replace('sub:alice', { ...current.data, nextRunAt: schedule.nextRunAt }, current.version);
    await firer().fire((await store.due(10))[0]!);
    expect(started).toEqual(['sub:alice:w-1']);
    const fires = await store.fires('s-1', { limit: 10, cursor: null });
    expect(fires.records.map((record) => [record.data.scheduledFor, record.data.state])).toEqual([[schedule.nextRunAt, 'Started']]);
  });

  it('does not fire a schedule changed or deleted since it was read', async () => {
    const { clock, store, started, firer, schedule } = setup();
    await store.create('sub:alice', schedule, 50);
    clock.advance(HOUR);
    const [stale] = await store.due(10);
    await store.replace('sub:alice', { ...schedule, enabled: false, nextRunAt: null }, stale!.version);
    await firer().fire(stale!);
    await store.delete({ ownerId: 'sub:alice' }, 's-1');
    await firer().fire(stale!);
    expect(started).toEqual([]);
  });

  it('records a refused start as Skipped (a conflict) or Failed (anything else) with a caller-safe reason', async () => {
    const { clock, store, events, firer, schedule, refuseWith } = setup();
    await store.create('sub:alice', schedule, 50);
    refuseWith(new ProblemError('conflict', 'The workflow already has a live run (Queued, Running or Blocked).'));
    clock.advance(HOUR);
    await firer().fire((await store.due(10))[0]!);
    refuseWith(new Error('connection to 10.0.0.7 reset'));
    clock.advance(HOUR);
    await firer().fire((await store.due(10))[0]!);
    const fires = await store.fires('s-1', { limit: 10, cursor: null });
    expect(fires.records.map((record) => [record.data.state, record.data.reason])).toEqual([
      ['Failed', 'The run could not be started (an unexpected error; the host log has the cause).'],
      ['Skipped', 'The workflow already has a live run (Queued, Running or Blocked).'],
    ]);
    // The event names the schedule and the outcome and points at its fires; the reason stays behind the owner's GET.
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['schedule.failed', { scheduleId: 's-1', workflowId: 'w-1', status: 'Skipped', url: '/api/schedules/s-1/fires' }],
      ['schedule.failed', { scheduleId: 's-1', workflowId: 'w-1', status: 'Failed', url: '/api/schedules/s-1/fires' }],
    ]);
  });
});
