// Subscriptions and their deliveries in the storage port (DESIGN.md §14, §11: they survive restarts and
// every instance sees them). A subscription is a record in its owner's partition (state `Active`, so
// the per-owner cap is counted atomically with the insert); its deliveries are records beside it,
// scoped by its id. Foreign and unknown ids are the same miss, by the port's keys.
import type { ListPage, RecordKey, Storage, StoredRecord } from '../platform/storage/index.js';
import { DELIVERY_COLLECTION, type DeliveryData } from './webhook-delivery.js';

export const WEBHOOK_COLLECTION = 'webhook';
const ACTIVE = 'Active';
/** At most this many subscriptions per owner (DESIGN.md §14). */
export const MAX_WEBHOOKS_PER_OWNER = 20;

export interface WebhookData {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  /** Kept to sign deliveries; answered only by the create. */
  readonly secret: string;
  readonly createdAt: number;
}

const webhookKey = (ownerId: string, id: string): RecordKey => ({ collection: WEBHOOK_COLLECTION, ownerId, id });

export class WebhookStore {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  /** Stores a new subscription; false when the owner already has the most they may. */
  async create(ownerId: string, webhook: WebhookData): Promise<boolean> {
    const result = await this.#storage.records.insert<WebhookData>(
      { ...webhookKey(ownerId, webhook.id), state: ACTIVE, createdAt: webhook.createdAt, data: webhook },
      { ownerCap: { max: MAX_WEBHOOKS_PER_OWNER, states: [ACTIVE] } },
    );
    return result.outcome === 'inserted';
  }

  async get(ownerId: string, id: string): Promise<WebhookData | undefined> {
    return (await this.#storage.records.get<WebhookData>(webhookKey(ownerId, id)))?.data;
  }

  /** Every subscription of the owner (at most MAX_WEBHOOKS_PER_OWNER: one read). */
  async all(ownerId: string): Promise<WebhookData[]> {
    return (await this.#storage.records.list<WebhookData>(WEBHOOK_COLLECTION, ownerId, { limit: MAX_WEBHOOKS_PER_OWNER })).records.map((record) => record.data);
  }

  list(ownerId: string, page: { readonly limit: number; readonly cursor: string | null }): Promise<ListPage<WebhookData>> {
    return this.#storage.records.list<WebhookData>(WEBHOOK_COLLECTION, ownerId, page);
  }

  delete(ownerId: string, id: string): Promise<boolean> {
    return this.#storage.records.delete(webhookKey(ownerId, id));
  }

  /** A subscription's deliveries, newest first. */
  deliveries(ownerId: string, webhookId: string, page: { readonly limit: number; readonly cursor: string | null }): Promise<ListPage<DeliveryData>> {
    return this.#storage.records.list<DeliveryData>(DELIVERY_COLLECTION, ownerId, { ...page, scope: webhookId });
  }

  /** Removes deliveries kept past their retention. */
  async sweep(): Promise<StoredRecord[]> {
    return this.#storage.records.sweep(DELIVERY_COLLECTION);
  }
}
