// Schedules and their fires in the storage port (DESIGN.md §14, §11: shared by every instance).
// A schedule is an owned record whose lease is its alarm: held by no instance (ALARM_HOLDER) and
// lapsing at the next fire, so "which schedules are due" is the port's indexed lapsed-lease query,
// one cheap read per tick on every instance. Each fire is a record keyed by (schedule, scheduled
// instant): inserting it is the claim, and a second insert of the same key loses. Fires are kept in
// their schedule's partition (its unguessable id), so one schedule's list is one index range however
// many fires its owner's other schedules have; they are reached only through the owner's schedule.
import type { Owner } from '../platform/ownership/index.js';
import type { ListPage, OutboxEntry, RecordKey, Storage, StoredRecord } from '../platform/storage/index.js';
import type { FireData } from './schedule-fire.js';
import type { ScheduleData } from './schedule-record.js';

export const SCHEDULE_COLLECTION = 'schedule';
export const FIRE_COLLECTION = 'schedule-fire';
/** The alarm's holder: a name no instance id can take (instance ids never contain ':'). */
export const ALARM_HOLDER = 'schedules:next-fire';
const STATES = ['Enabled', 'Disabled'];

const scheduleKey = (ownerId: string, id: string): RecordKey => ({ collection: SCHEDULE_COLLECTION, ownerId, id });
const fireKey = (fire: Pick<FireData, 'scheduleId' | 'scheduledFor'>): RecordKey => ({ collection: FIRE_COLLECTION, ownerId: fire.scheduleId, id: String(fire.scheduledFor) });

/** The record fields that follow from a schedule's data: its state and its alarm. */
function derived(schedule: ScheduleData) {
  return {
    state: schedule.enabled ? 'Enabled' : 'Disabled',
    lease: schedule.enabled && schedule.nextRunAt !== null ? { holder: ALARM_HOLDER, expiresAt: schedule.nextRunAt } : null,
  };
}

export class ScheduleStore {
  readonly #storage: Storage;

  constructor(options: { readonly storage: Storage }) {
    this.#storage = options.storage;
  }

  /** Stores a new schedule unless the owner already has `max`; false then. */
  async create(ownerId: string, schedule: ScheduleData, max: number): Promise<boolean> {
    const outcome = await this.#storage.records.insert<ScheduleData>(
      { ...scheduleKey(ownerId, schedule.id), ...derived(schedule), createdAt: schedule.createdAt, data: schedule },
      { ownerCap: { max, states: STATES } },
    );
    return outcome.outcome === 'inserted';
  }

  get(owner: Owner, id: string): Promise<StoredRecord<ScheduleData> | undefined> {
    return this.#storage.records.get<ScheduleData>(scheduleKey(owner.ownerId, id));
  }

  list(owner: Owner, page: { readonly limit: number; readonly cursor: string | null }): Promise<ListPage<ScheduleData>> {
    return this.#storage.records.list<ScheduleData>(SCHEDULE_COLLECTION, owner.ownerId, page);
  }

  /** Replaces the schedule (and its alarm) when it is still at `version`; undefined when it changed or went. */
  replace(ownerId: string, next: ScheduleData, version: number): Promise<StoredRecord<ScheduleData> | undefined> {
    return this.#storage.records.update<ScheduleData>(scheduleKey(ownerId, next.id), { ...derived(next), data: next }, { version });
  }

  delete(owner: Owner, id: string): Promise<boolean> {
    return this.#storage.records.delete(scheduleKey(owner.ownerId, id));
  }

  /** Enabled schedules whose next fire has come, the most overdue first. */
  due(limit: number): Promise<StoredRecord<ScheduleData>[]> {
    return this.#storage.records.lapsed<ScheduleData>([SCHEDULE_COLLECTION], ['Enabled'], limit);
  }

  /** Claims a fire for (schedule, scheduled instant); false when it was claimed before, here or elsewhere. */
  async claimFire(fire: FireData, expiresAt: number): Promise<boolean> {
    const outcome = await this.#storage.records.insert<FireData>({
      ...fireKey(fire),
      state: fire.state,
      // Lists are newest first by createdAt: fires are listed by the instant they stand for.
      createdAt: fire.scheduledFor,
      expiresAt,
      data: fire,
    });
    return outcome.outcome === 'inserted';
  }

  /** Records what came of a claimed fire, with the outbox entries of its event in the same commit. */
  async settleFire(fire: FireData, outbox: readonly OutboxEntry[] = []): Promise<void> {
    await this.#storage.records.update<FireData>(fireKey(fire), { state: fire.state, data: fire }, { states: ['Claimed'] }, outbox);
  }

  /** A schedule's fires, newest scheduled instant first; call only for a schedule the caller owns. */
  fires(scheduleId: string, page: { readonly limit: number; readonly cursor: string | null }): Promise<ListPage<FireData>> {
    return this.#storage.records.list<FireData>(FIRE_COLLECTION, scheduleId, page);
  }

  async sweep(): Promise<void> {
    await this.#storage.records.sweep(FIRE_COLLECTION);
  }
}
