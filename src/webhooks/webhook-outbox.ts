// The EventOutbox webhooks implement: an event of an owner's resource becomes one delivery per
// subscription of that owner that listens for its type, all sharing one event id (the `webhook-id`),
// returned as outbox entries for the family to write with its change. An owner without such a
// subscription costs nothing most of the time (the subscriptions are kept per instance for up to 5 s,
// forgotten on every instance at a create or delete: decision 2803) and writes nothing.
import type { IdGenerator } from '../platform/clock/index.js';
import type { EventOutbox, ResourceEvent } from '../platform/outbox/index.js';
import type { EpochMs, OutboxEntry } from '../platform/storage/index.js';
import { eventBody, newDelivery } from './webhook-delivery.js';
import type { WebhookStore } from './webhook-store.js';

export class WebhookOutbox implements EventOutbox {
  readonly #store: WebhookStore;
  readonly #ids: IdGenerator;

  constructor(store: WebhookStore, ids: IdGenerator) {
    this.#store = store;
    this.#ids = ids;
  }

  async entriesFor(event: ResourceEvent, at: EpochMs): Promise<readonly OutboxEntry[]> {
    const listening = (await this.#store.listening(event.ownerId)).filter((webhook) => webhook.events.includes(event.type));
    if (listening.length === 0) return [];
    const eventId = `msg_${this.#ids.opaque()}`;
    const body = eventBody(event.type, at, event.data);
    return listening.map((webhook) =>
      newDelivery({ ownerId: event.ownerId, webhookId: webhook.id, deliveryId: this.#ids.opaque(), eventId, type: event.type, body, at }),
    );
  }
}
