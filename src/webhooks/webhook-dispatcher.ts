// Delivers what the outbox holds, on every instance: each pass reads the deliveries that are due (a
// Pending delivery's lease lapses when its next attempt is due; at most a slot-full of each owner's, so
// no owner's backlog hides another's), chooses among them fairly (DeliverySlots: fewest in flight per
// owner, an owner cap, receivers that keep timing out one at a time), claims each with a compare-and-set
// lease (so one attempt at a time across instances) and attempts it; an instance that dies mid-attempt
// lets its lease lapse and another attempts again with the same `webhook-id` (at least once). A pass
// runs every PollInterval, when a test event is sent (a signal) and whenever an attempt ends; a storage
// outage is logged once when it starts and once when it ends, and the next pass tries again.
import { setMaxListeners } from 'node:events';
import type { Clock } from '../platform/clock/index.js';
import { OutageLog, type OutageLogSink } from '../platform/log/index.js';
import type { RecordKey, Storage, StoredRecord } from '../platform/storage/index.js';
import { DeliverySlots, slotUseOf } from './delivery-slots.js';
import { retryDelayMs } from './retry-schedule.js';
import type { AttemptResult, WebhookAttempt } from './send-webhook.js';
import { DELIVERY_COLLECTION, DUE_HOLDER, type DeliveryData, type DeliveryState } from './webhook-delivery.js';
import type { WebhookData, WebhookStore } from './webhook-store.js';

/** The signal topic that wakes every instance's dispatcher. */
export const WEBHOOKS_TOPIC = 'webhooks';
/** How long a Delivered or Failed delivery stays in the deliveries log. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3_600_000;

/** A scan reads this many due deliveries per free slot, to choose among owners. */
const CANDIDATES_PER_SLOT = 4;

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export interface WebhookDispatcherOptions {
  readonly storage: Storage;
  readonly store: WebhookStore;
  readonly clock: Clock;
  /** This instance's lease holder name for attempts in flight. */
  readonly holder: string;
  readonly leaseTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxAttempts: number;
  /** Attempts in flight at once on this instance. */
  readonly concurrency: number;
  readonly send: (attempt: WebhookAttempt, signal: AbortSignal) => Promise<AttemptResult>;
  readonly log: OutageLogSink;
  readonly onAttempt?: (outcome: DeliveryOutcome) => void;
}

export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  readonly #outage: OutageLog;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #slots: DeliverySlots;
  readonly #stopping = new AbortController();
  #timers: NodeJS.Timeout[] = [];
  #unsubscribe: () => void = () => undefined;
  #passing = false;
  #again = false;

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#outage = new OutageLog(options.log, 'delivering webhooks');
    this.#slots = new DeliverySlots(options.concurrency);
    // Every attempt in flight listens for the stop (its deadline's parent): as many as there are slots.
    setMaxListeners(options.concurrency + 10, this.#stopping.signal);
  }

  start(): void {
    const { storage, pollIntervalMs, leaseTtlMs, holder } = this.#options;
    this.#unsubscribe = storage.signals.subscribe(WEBHOOKS_TOPIC, () => this.wake());
    const renew = (): void => {
      if (this.#inFlight.size > 0) storage.records.renewLeases(holder, leaseTtlMs).catch((err: unknown) => this.#outage.failed(err));
    };
    this.#timers = [setInterval(() => this.wake(), pollIntervalMs), setInterval(renew, Math.max(1, Math.floor(leaseTtlMs / 3)))];
    for (const timer of this.#timers) timer.unref();
    this.wake();
  }

  /** Looks for due deliveries now (a pass already running looks again when it ends). */
  wake(): void {
    if (this.#stopping.signal.aborted) return;
    if (this.#passing) {
      this.#again = true;
      return;
    }
    void this.#pass();
  }

  /** Stops looking, abandons the attempts in flight (not recorded) and lets their leases lapse so another instance attempts them at once. */
  async stop(): Promise<void> {
    if (this.#stopping.signal.aborted) return;
    this.#stopping.abort(new Error('the instance is stopping'));
    for (const timer of this.#timers) clearInterval(timer);
    this.#unsubscribe();
    await Promise.allSettled(this.#inFlight.values());
    await this.#options.storage.records.releaseLeases(this.#options.holder).catch(() => undefined);
  }

  async #pass(): Promise<void> {
    const { storage, holder, leaseTtlMs } = this.#options;
    this.#passing = true;
    try {
      do {
        this.#again = false;
        const room = this.#slots.free;
        if (room <= 0) break; // an attempt ending wakes the next pass
        const limit = room * CANDIDATES_PER_SLOT;
        const found = await storage.records.lapsed<DeliveryData>([DELIVERY_COLLECTION], ['Pending'], limit, this.#slots.candidatesPerOwner(room));
        const due = this.#slots.pick(found, room);
        // Claimed together (one round trip each, in parallel); a subscription is read once per pass.
        const subscriptions = new Map<string, Promise<WebhookData | undefined>>();
        const subscriptionOf = (record: StoredRecord<DeliveryData>): Promise<WebhookData | undefined> => {
          const key = `${record.ownerId}\u0000${record.data.webhookId}`;
          let read = subscriptions.get(key);
          if (read === undefined) subscriptions.set(key, (read = this.#options.store.get(record.ownerId, record.data.webhookId)));
          return read;
        };
        const claims = await Promise.all(
          due.map((record) => storage.records.claim<DeliveryData>(record, holder, leaseTtlMs, { states: ['Pending'], lapsedOnly: true })),
        );
        for (const claimed of claims) {
          // Claimed as the instance began stopping: let it lapse at once for another instance.
          if (claimed !== undefined && !this.#stopping.signal.aborted) this.#launch(claimed, subscriptionOf(claimed));
        }
        this.#outage.succeeded();
        // More may be due than one scan saw; nothing picked means every candidate waits for a slot to end.
        if (found.length >= limit && due.length > 0) this.#again = true;
      } while (this.#again && !this.#stopping.signal.aborted);
    } catch (err) {
      this.#outage.failed(err);
    } finally {
      this.#passing = false;
    }
  }

  #launch(record: StoredRecord<DeliveryData>, subscription: Promise<WebhookData | undefined>): void {
    const use = slotUseOf(record);
    // A delivery already being attempted here whose lease lapsed under it (a stalled event loop, a
    // clock that jumped) was claimed again by this pass: the attempt in flight goes on alone.
    if (this.#slots.isInFlight(use)) return;
    this.#slots.take(use);
    let timedOut: boolean | null = null;
    const attempt = this.#attempt(record, subscription)
      .then((outcome) => {
        timedOut = outcome;
      })
      .catch((err: unknown) => {
        if (!this.#stopping.signal.aborted) this.#outage.failed(err);
      })
      .finally(() => {
        this.#inFlight.delete(use.deliveryKey);
        this.#slots.give(use, timedOut);
        this.wake();
      });
    this.#inFlight.set(use.deliveryKey, attempt);
  }

  /** Attempts one delivery; answers whether the receiver timed out (null: no attempt was made or recorded). */
  async #attempt(record: StoredRecord<DeliveryData>, subscription: Promise<WebhookData | undefined>): Promise<boolean | null> {
    const { storage, clock, holder, maxAttempts } = this.#options;
    const key: RecordKey = { collection: record.collection, ownerId: record.ownerId, id: record.id };
    const delivery = record.data;
    const webhook = await subscription;
    if (webhook === undefined) {
      await storage.records.delete(key); // its subscription was deleted: nobody to deliver to
      return null;
    }
    const signal = this.#stopping.signal;
    const result = await this.#options.send(
      { url: webhook.url, secret: webhook.secret, eventId: delivery.eventId, body: delivery.body, timestampSeconds: Math.floor(clock.now() / 1000) },
      signal,
    );
    if (signal.aborted) return null; // stopping: not recorded; the lease is released and another instance attempts it
    const now = clock.now();
    const attempt = delivery.attempt + 1;
    const delivered = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
    const next = delivered || attempt >= maxAttempts ? null : now + retryDelayMs(attempt);
    const state: DeliveryState = delivered ? 'Delivered' : next === null ? 'Failed' : 'Pending';
    const data: DeliveryData = { ...delivery, attempt, responseStatus: result.responseStatus, durationMs: result.durationMs, nextAttemptAt: next };
    const written = await storage.records.update<DeliveryData>(
      key,
      { state, data, lease: next === null ? null : { holder: DUE_HOLDER, expiresAt: next }, expiresAt: next === null ? now + DELIVERY_RETENTION_MS : null },
      { leaseHolder: holder },
    );
    if (written !== undefined) this.#options.onAttempt?.(delivered ? 'delivered' : next === null ? 'failed' : 'retry');
    return result.timedOut;
  }
}
