// Subscriptions and their deliveries in the storage port (DESIGN.md §14, §11: they survive restarts and
// every instance sees them). A subscription is a record in its owner's partition (state `Active`, so
// the per-owner cap is counted atomically with the insert); its deliveries are records beside it,
// scoped by its id. Foreign and unknown ids are the same miss, by the port's keys.
import { LRUCache } from 'lru-cache';
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

/** The signal every instance hears when an owner's subscriptions change (the message is the owner id). */
const CHANGED_TOPIC = 'webhooks:changed';
/** How long an owner's subscriptions are answered from memory at most, should a change signal be lost. */
export const SUBSCRIPTIONS_CACHE_MS = 5_000;

export class WebhookStore {
  readonly #storage: Storage;
  /** owner → its subscriptions as last read here, and when (decision 2803). */
  readonly #subscriptions = new LRUCache<string, { readonly list: WebhookData[]; readonly readAt: number }>({ max: 10_000 });
  /** owner → changes heard; a read that began before a change does not fill the cache. */
  readonly #generations = new Map<string, number>();

  constructor(storage: Storage) {
    this.#storage = storage;
    storage.signals.subscribe(CHANGED_TOPIC, (ownerId) => this.#forget(ownerId));
  }

  /** Stores a new subscription; false when the owner already has the most they may. */
  async create(ownerId: string, webhook: WebhookData): Promise<boolean> {
    const result = await this.#storage.records.insert<WebhookData>(
      { ...webhookKey(ownerId, webhook.id), state: ACTIVE, createdAt: webhook.createdAt, data: webhook },
      { ownerCap: { max: MAX_WEBHOOKS_PER_OWNER, states: [ACTIVE] } },
    );
    if (result.outcome === 'inserted') await this.#changed(ownerId);
    return result.outcome === 'inserted';
  }

  /**
   * The owner's subscriptions for matching an event: from memory when read here less than
   * SUBSCRIPTIONS_CACHE_MS ago and no change was heard since (every instance hears a create or delete
   * at once through the storage's signals); otherwise one read.
   */
  async listening(ownerId: string): Promise<WebhookData[]> {
    const cached = this.#subscriptions.get(ownerId);
    const now = this.#storage.clock.now();
    if (cached !== undefined && now - cached.readAt < SUBSCRIPTIONS_CACHE_MS) return cached.list;
    const generation = this.#generations.get(ownerId) ?? 0;
    const list = await this.all(ownerId);
    if ((this.#generations.get(ownerId) ?? 0) === generation) this.#subscriptions.set(ownerId, { list, readAt: now });
    return list;
  }

  async #changed(ownerId: string): Promise<void> {
    this.#forget(ownerId);
    // The change is stored: a signal that cannot be sent leaves other instances at most
    // SUBSCRIPTIONS_CACHE_MS behind, never the request failing after its write.
    await this.#storage.signals.publish(CHANGED_TOPIC, ownerId).catch(() => undefined);
  }

  #forget(ownerId: string): void {
    this.#subscriptions.delete(ownerId);
    this.#generations.set(ownerId, (this.#generations.get(ownerId) ?? 0) + 1);
    // Only owners with a read in flight need their count; the rest start again from 0 harmlessly.
    if (this.#generations.size > 10_000) this.#generations.clear();
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

  async delete(ownerId: string, id: string): Promise<boolean> {
    const deleted = await this.#storage.records.delete(webhookKey(ownerId, id));
    if (deleted) await this.#changed(ownerId);
    return deleted;
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
