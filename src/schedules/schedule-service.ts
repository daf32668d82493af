// The schedule use cases without HTTP (DESIGN.md §14): create (cron and zone checked, at most 50 per
// owner, atomically), list, get, change, delete and the fires list — owner-scoped, foreign ≡ unknown.
// Creating or changing a schedule stores the caller's identity claims with it: its fires run under
// them. Deleting it revokes them: the alarm goes with the record, so no instance can fire it again.
import type { Principal } from '../platform/auth/index.js';
import type { Clock, IdGenerator } from '../platform/clock/index.js';
import type { SchedulesConfig } from '../platform/config/types.js';
import { canonicalTimeZone, CronPlan } from './cron-plan.js';
import { scheduleCapReached, scheduleChangedMeanwhile, scheduleNotFound, schedulesDisabled, scheduleTargetMissing, unknownTimeZone } from './problems.js';
import type { ScheduleTargets } from './schedule-targets.js';
import { toFireResource } from './schedule-fire.js';
import { runAsOf, toScheduleResource, type ScheduleData } from './schedule-record.js';
import type { ScheduleStore } from './schedule-store.js';
import type { FireResource, ScheduleResource, ScheduleTarget } from './schemas.js';

/** DESIGN §14: at most 50 schedules per owner. */
export const MAX_SCHEDULES_PER_OWNER = 50;
const DEFAULT_TIME_ZONE = 'UTC';
/** A PATCH racing another change is retried this many times before it answers 409. */
const UPDATE_ATTEMPTS = 3;

export interface ScheduleSpec {
  readonly name: string;
  readonly cron: string;
  readonly timeZone?: string;
  readonly target: ScheduleTarget;
  readonly enabled?: boolean;
}

export type SchedulePatch = Partial<ScheduleSpec>;

interface Page {
  readonly limit: number;
  readonly cursor: string | null;
}

export interface ScheduleServiceOptions {
  readonly config: SchedulesConfig;
  readonly store: ScheduleStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** What a target is checked against when a schedule is created or its target changed. */
  readonly targets: Pick<ScheduleTargets, 'workflowExists' | 'datasetsExist'>;
}

export class ScheduleService {
  readonly #options: ScheduleServiceOptions;

  constructor(options: ScheduleServiceOptions) {
    this.#options = options;
  }

  async create(principal: Principal, spec: ScheduleSpec): Promise<ScheduleResource> {
    this.#enabled();
    const { clock, ids, store } = this.#options;
    const now = clock.now();
    const cron = normalizeCron(spec.cron);
    const timeZone = this.#timeZone(spec.timeZone ?? DEFAULT_TIME_ZONE);
    const plan = CronPlan.accept(cron, timeZone, this.#options.config, now);
    await this.#checkTarget(principal, spec.target);
    const enabled = spec.enabled ?? true;
    const schedule: ScheduleData = {
      id: ids.opaque(),
      name: spec.name,
      cron,
      timeZone,
      target: spec.target,
      enabled,
      nextRunAt: enabled ? plan.next(now) : null,
      createdAt: now,
      runAs: runAsOf(principal),
    };
    if (!(await store.create(principal.ownerId, schedule, MAX_SCHEDULES_PER_OWNER))) throw scheduleCapReached(MAX_SCHEDULES_PER_OWNER);
    return toScheduleResource(schedule);
  }

  /** A target that names a workflow or dataset the caller does not have is refused now, not at every fire. */
  async #checkTarget(principal: Principal, target: ScheduleTarget): Promise<void> {
    const { targets } = this.#options;
    if ('workflow' in target) {
      if (!(await targets.workflowExists(principal, target.workflow.workflowId))) throw scheduleTargetMissing('workflow');
    } else if (!(await targets.datasetsExist(principal, target.eval.datasets))) {
      throw scheduleTargetMissing('dataset');
    }
  }

  async list(principal: Principal, page: Page): Promise<{ schedules: ScheduleResource[]; nextCursor: string | null }> {
    this.#enabled();
    const found = await this.#options.store.list(principal, page);
    return { schedules: found.records.map((record) => toScheduleResource(record.data)), nextCursor: found.nextCursor };
  }

  async get(principal: Principal, id: string): Promise<ScheduleResource> {
    return toScheduleResource((await this.#find(principal, id)).data);
  }

  /**
   * Changes what the patch names and stores this caller's claims; a new cron, zone or re-enabling
   * plans the next fire from now (no catch-up for the time it was off), anything else keeps it.
   */
  async update(principal: Principal, id: string, patch: SchedulePatch): Promise<ScheduleResource> {
    const now = this.#options.clock.now();
    const cron = patch.cron === undefined ? undefined : normalizeCron(patch.cron);
    const timeZone = patch.timeZone === undefined ? undefined : this.#timeZone(patch.timeZone);
    if (patch.target !== undefined) await this.#checkTarget(principal, patch.target);
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const { data: current, version } = await this.#find(principal, id);
      const enabled = patch.enabled ?? current.enabled;
      const replanned = enabled && !current.enabled;
      const next: ScheduleData = {
        ...current,
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.target === undefined ? {} : { target: patch.target }),
        cron: cron ?? current.cron,
        timeZone: timeZone ?? current.timeZone,
        enabled,
        runAs: runAsOf(principal),
      };
      const plan = cron !== undefined || timeZone !== undefined ? CronPlan.accept(next.cron, next.timeZone, this.#options.config, now) : replanned ? CronPlan.of(next.cron, next.timeZone) : undefined;
      const nextRunAt = !enabled ? null : plan === undefined ? current.nextRunAt : plan.next(now);
      const stored = await this.#options.store.replace(principal.ownerId, { ...next, nextRunAt }, version);
      if (stored !== undefined) return toScheduleResource(stored.data);
    }
    throw scheduleChangedMeanwhile();
  }

  async delete(principal: Principal, id: string): Promise<void> {
    this.#enabled();
    if (!(await this.#options.store.delete(principal, id))) throw scheduleNotFound();
  }

  /** The schedule's fires, newest scheduled instant first. */
  async fires(principal: Principal, id: string, page: Page): Promise<{ fires: FireResource[]; nextCursor: string | null }> {
    await this.#find(principal, id);
    const found = await this.#options.store.fires(id, page);
    const now = this.#options.clock.now();
    return { fires: found.records.flatMap((record) => toFireResource(record.data, now) ?? []), nextCursor: found.nextCursor };
  }

  async #find(principal: Principal, id: string) {
    this.#enabled();
    const found = await this.#options.store.get(principal, id);
    if (found === undefined) throw scheduleNotFound();
    return found;
  }

  #timeZone(name: string): string {
    const zone = canonicalTimeZone(name);
    if (zone === undefined) throw unknownTimeZone(name);
    return zone;
  }

  #enabled(): void {
    if (!this.#options.config.enabled) throw schedulesDisabled();
  }
}

/** One space between fields, none around them: how the cron is stored and answered. */
function normalizeCron(cron: string): string {
  return cron.trim().split(/\s+/).join(' ');
}
