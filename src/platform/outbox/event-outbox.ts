// How a family reports an event: it asks for the outbox entries the event needs and writes them in the
// same commit as the state change that caused it (records.ts OutboxEntry), so the event exists exactly
// when the change does, whatever happens to the process next. Who listens (webhooks) is the
// implementation's business; an owner nobody listens for costs one read and no write.
import type { EpochMs, OutboxEntry } from '../storage/index.js';
import type { ResourceEvent } from './resource-event.js';

export interface EventOutbox {
  /** The entries delivering `event` (caused at `at`), to be written with the change; none when nobody listens. */
  entriesFor(event: ResourceEvent, at: EpochMs): Promise<readonly OutboxEntry[]>;
}

/** Nobody listens (tests and tools that build a family without webhooks). */
export const NO_EVENT_OUTBOX: EventOutbox = Object.freeze({ entriesFor: () => Promise.resolve([]) });
