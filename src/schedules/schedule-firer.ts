// Fires one due schedule (DESIGN.md §14), at most once per scheduled instant across instances:
//   1 the tick: the schedule's alarm moves to its next fire, compare-and-set on the version read — an
//     instance that lost the race (or a PATCH or DELETE that came first) leaves it there;
//   2 the instant: the fire record keyed by (schedule, scheduled instant) is inserted — a second
//     insert of the same key loses, whatever the versions in between;
//   3 the run is started as the owner under the stored claims, and the fire records what came of it,
//     with its `schedule.*` webhook event in the same commit.
// Instants missed while no instance ran collapse into one catch-up fire: the latest one that passed.
import type { AuditLog, ScheduleFireRef } from '../platform/audit/index.js';
import type { Clock } from '../platform/clock/index.js';
import { isoInstant } from '../platform/clock/index.js';
import type { EventOutbox } from '../platform/outbox/index.js';
import type { StoredRecord } from '../platform/storage/index.js';
import { CronPlan } from './cron-plan.js';
import { scheduleFireEvent } from './schedule-event.js';
import type { FireData } from './schedule-fire.js';
import { principalFor, targetKind, type ScheduleData } from './schedule-record.js';
import type { ScheduleStore } from './schedule-store.js';
import { classifyRefusal, type Refusal, type ScheduleTargets } from './schedule-targets.js';

export interface ScheduleFirerOptions {
  readonly store: ScheduleStore;
  readonly targets: Pick<ScheduleTargets, 'startWorkflow' | 'startEval'>;
  readonly clock: Clock;
  readonly audit: AuditLog;
  /** Where `schedule.fired`/`schedule.failed` go, written with the fire's outcome. */
  readonly events: EventOutbox;
  readonly fireRetentionMs: number;
  readonly log: { warn(details: object, message: string): void };
}

export class ScheduleFirer {
  readonly #options: ScheduleFirerOptions;

  constructor(options: ScheduleFirerOptions) {
    this.#options = options;
  }

  async fire(record: StoredRecord<ScheduleData>): Promise<void> {
    const { store, clock } = this.#options;
    const schedule = record.data;
    const now = clock.now();
    const due = record.leaseExpiresAt ?? now;
    const plan = this.#plan(schedule);
    const scheduledFor = Math.max(due, plan?.latest(now) ?? due);
    if ((await store.replace(record.ownerId, { ...schedule, nextRunAt: plan?.next(now) ?? null }, record.version)) === undefined) return;
    if (plan === undefined) return;
    const claim: FireData = { scheduleId: schedule.id, scheduledFor, firedAt: now, state: 'Claimed', jobId: null, reason: null };
    if (!(await store.claimFire(claim, now + this.#options.fireRetentionMs))) return;

    const ref: ScheduleFireRef = { scheduleId: schedule.id, owner: record.ownerId, scheduledFor: isoInstant(scheduledFor), target: targetKind(schedule.target) };
    const started = await this.#start(record.ownerId, schedule);
    const settled: FireData = 'jobId' in started ? { ...claim, state: 'Started', jobId: started.jobId } : { ...claim, state: started.outcome, reason: started.reason };
    await store.settleFire(settled, await this.#options.events.entriesFor(scheduleFireEvent(record.ownerId, schedule, settled), clock.now()));
    if ('jobId' in started) this.#options.audit.scheduleFired(ref, started.jobId, scheduledFor > due);
    else this.#options.audit.scheduleFailed(ref, started.outcome, started.problem);
  }

  async #start(ownerId: string, schedule: ScheduleData): Promise<{ readonly jobId: string } | Refusal> {
    const runAs = principalFor(ownerId, schedule.runAs);
    const { target } = schedule;
    try {
      const { jobId } =
        'workflow' in target ? await this.#options.targets.startWorkflow(runAs, target.workflow.workflowId, target.workflow.input) : await this.#options.targets.startEval(runAs, target.eval);
      return { jobId };
    } catch (err) {
      const refusal = classifyRefusal(err);
      if (refusal.problem === 'internal') this.#options.log.warn({ err, scheduleId: schedule.id }, 'a scheduled run could not be started');
      return refusal;
    }
  }

  /** The stored cron, read again; undefined (the alarm is then switched off) if this croner no longer reads it. */
  #plan(schedule: ScheduleData): CronPlan | undefined {
    try {
      return CronPlan.of(schedule.cron, schedule.timeZone);
    } catch (err) {
      this.#options.log.warn({ err, scheduleId: schedule.id }, 'a stored schedule’s cron can no longer be read; it will not fire until it is changed');
      return undefined;
    }
  }
}
