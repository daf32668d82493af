// Webhook subscriptions for their owner (DESIGN.md §14): create (the secret answered once), list, read,
// delete, the deliveries log, and a test event. Everything is the caller's own: another caller's id
// is the same 404 as an unknown one. Destinations are vetted by the DestinationPolicy at create and
// kept in their normalised form.
import type { Principal } from '../platform/auth/index.js';
import { isoInstant, type Clock, type IdGenerator } from '../platform/clock/index.js';
import type { Storage } from '../platform/storage/index.js';
import type { DestinationPolicy } from './destination-policy.js';
import { WEBHOOKS_TOPIC } from './webhook-dispatcher.js';
import { eventBody, newDelivery, toDeliveryResource, type DeliveryResource } from './webhook-delivery.js';
import { destinationRefused, tooManyWebhooks, webhookNotFound } from './webhook-problems.js';
import { newWebhookSecret } from './webhook-secret.js';
import type { WebhookData, WebhookStore } from './webhook-store.js';

export interface WebhookResource {
  readonly id: string;
  readonly url: string;
  readonly events: string[];
  readonly description: string | null;
  readonly createdAt: string;
}

export interface NewWebhook {
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null;
}

type Page = { readonly limit: number; readonly cursor: string | null };

export const webhookUrl = (id: string): string => `/api/webhooks/${encodeURIComponent(id)}`;

function toResource(webhook: WebhookData): WebhookResource {
  return { id: webhook.id, url: webhook.url, events: [...webhook.events], description: webhook.description, createdAt: isoInstant(webhook.createdAt) };
}

export interface WebhookServiceOptions {
  readonly store: WebhookStore;
  readonly storage: Storage;
  readonly policy: DestinationPolicy;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

export class WebhookService {
  readonly #options: WebhookServiceOptions;

  constructor(options: WebhookServiceOptions) {
    this.#options = options;
  }

  async create(principal: Principal, request: NewWebhook): Promise<WebhookResource & { readonly secret: string }> {
    const { store, policy, clock, ids } = this.#options;
    const destination = await policy.admit(request.url);
    if (!destination.ok) throw destinationRefused(destination.reason);
    const webhook: WebhookData = {
      id: ids.opaque(),
      url: destination.url,
      events: [...new Set(request.events)],
      description: request.description ?? null,
      secret: newWebhookSecret(),
      createdAt: clock.now(),
    };
    if (!(await store.create(principal.ownerId, webhook))) throw tooManyWebhooks();
    return { ...toResource(webhook), secret: webhook.secret };
  }

  async list(principal: Principal, page: Page): Promise<{ webhooks: WebhookResource[]; nextCursor: string | null }> {
    const found = await this.#options.store.list(principal.ownerId, page);
    return { webhooks: found.records.map((record) => toResource(record.data)), nextCursor: found.nextCursor };
  }

  async get(principal: Principal, id: string): Promise<WebhookResource> {
    return toResource(await this.#own(principal, id));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.#options.store.delete(principal.ownerId, id))) throw webhookNotFound();
  }

  async deliveries(principal: Principal, id: string, page: Page): Promise<{ deliveries: DeliveryResource[]; nextCursor: string | null }> {
    await this.#own(principal, id);
    const found = await this.#options.store.deliveries(principal.ownerId, id, page);
    return { deliveries: found.records.map((record) => toDeliveryResource(record.data, record.state)), nextCursor: found.nextCursor };
  }

  /** Queues a `webhook.test` event for this subscription, whatever its events, and wakes the dispatchers. */
  async test(principal: Principal, id: string): Promise<void> {
    const { storage, clock, ids } = this.#options;
    const webhook = await this.#own(principal, id);
    const at = clock.now();
    const body = eventBody('webhook.test', at, { webhookId: webhook.id, url: webhookUrl(webhook.id) });
    await storage.records.insert(newDelivery({ ownerId: principal.ownerId, webhookId: webhook.id, deliveryId: ids.opaque(), eventId: `msg_${ids.opaque()}`, type: 'webhook.test', body, at }));
    await storage.signals.publish(WEBHOOKS_TOPIC, 'due').catch(() => undefined); // a hint only: the next poll finds it anyway
  }

  async #own(principal: Principal, id: string): Promise<WebhookData> {
    const webhook = await this.#options.store.get(principal.ownerId, id);
    if (webhook === undefined) throw webhookNotFound();
    return webhook;
  }
}
