// Shares one instance's delivery slots out fairly (DESIGN §17's fairness, applied to webhooks): of the
// deliveries that are due, the next slot goes to the owner with the fewest attempts in flight (ties:
// the oldest due delivery), an owner holds at most half the slots (so another owner's delivery never
// waits behind one owner's hanging receivers), and a subscription whose attempts timed out twice in a
// row gets one attempt at a time until one is answered (its other deliveries wait, not counted as
// attempts; other receivers are not delayed). A delivery already in flight here is never launched
// again, even when its lease lapsed under it (a stalled loop or a clock that jumped). What is in flight
// is this instance's: each instance shares its own slots.
import type { StoredRecord } from '../platform/storage/index.js';
import type { DeliveryData } from './webhook-delivery.js';

/** Timeouts in a row after which a subscription is attempted one delivery at a time. */
export const TIMEOUTS_BEFORE_BACKOFF = 2;
/** Subscriptions whose timeouts are remembered; the oldest is forgotten past this. */
const REMEMBERED_RECEIVERS = 10_000;

export interface SlotUse {
  readonly deliveryKey: string;
  readonly ownerId: string;
  readonly subscriptionKey: string;
}

export function slotUseOf(record: StoredRecord<DeliveryData>): SlotUse {
  return {
    deliveryKey: `${record.ownerId}\u0000${record.id}`,
    ownerId: record.ownerId,
    subscriptionKey: `${record.ownerId}\u0000${record.data.webhookId}`,
  };
}

export class DeliverySlots {
  readonly #concurrency: number;
  readonly #ownerCap: number;
  readonly #inFlight = new Set<string>();
  readonly #perOwner = new Map<string, number>();
  readonly #perSubscription = new Map<string, number>();
  /** Timeouts in a row, per subscription that has timed out since it last answered. */
  readonly #timeouts = new Map<string, number>();

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
    this.#ownerCap = Math.max(1, Math.floor(concurrency / 2));
  }

  get free(): number {
    return this.#concurrency - this.#inFlight.size;
  }

  /** How many of each owner's due deliveries a scan needs to see to fill `room` slots. */
  candidatesPerOwner(room: number): number {
    return Math.min(room, this.#ownerCap);
  }

  isInFlight(use: SlotUse): boolean {
    return this.#inFlight.has(use.deliveryKey);
  }

  /** Whether the subscription is attempted one delivery at a time. */
  isBackedOff(subscriptionKey: string): boolean {
    return (this.#timeouts.get(subscriptionKey) ?? 0) >= TIMEOUTS_BEFORE_BACKOFF;
  }

  /**
   * Chooses up to `room` of `due` (oldest first) to attempt now: fewest in flight per owner first, the
   * owner cap and backed-off subscriptions respected, nothing already in flight. Takes no slot.
   */
  pick(due: readonly StoredRecord<DeliveryData>[], room: number): StoredRecord<DeliveryData>[] {
    const queues = new Map<string, StoredRecord<DeliveryData>[]>();
    for (const record of due) {
      if (this.#inFlight.has(slotUseOf(record).deliveryKey)) continue;
      const queue = queues.get(record.ownerId);
      if (queue === undefined) queues.set(record.ownerId, [record]);
      else queue.push(record);
    }
    const load = new Map<string, number>();
    const loadOf = (ownerId: string): number => load.get(ownerId) ?? this.#perOwner.get(ownerId) ?? 0;
    const subscriptions = new Map<string, number>();
    const picked: StoredRecord<DeliveryData>[] = [];
    while (picked.length < room) {
      let best: StoredRecord<DeliveryData>[] | undefined;
      let bestOwner = '';
      for (const [ownerId, queue] of queues) {
        if (queue.length === 0 || loadOf(ownerId) >= this.#ownerCap) continue;
        const better =
          best === undefined ||
          loadOf(ownerId) < loadOf(bestOwner) ||
          (loadOf(ownerId) === loadOf(bestOwner) && (queue[0]?.leaseExpiresAt ?? 0) < (best[0]?.leaseExpiresAt ?? 0));
        if (better) {
          best = queue;
          bestOwner = ownerId;
        }
      }
      if (best === undefined) break;
      const record = best.shift() as StoredRecord<DeliveryData>;
      const { subscriptionKey } = slotUseOf(record);
      const attempting = subscriptions.get(subscriptionKey) ?? this.#perSubscription.get(subscriptionKey) ?? 0;
      if (attempting > 0 && this.isBackedOff(subscriptionKey)) continue; // waits for the one in flight
      subscriptions.set(subscriptionKey, attempting + 1);
      load.set(bestOwner, loadOf(bestOwner) + 1);
      picked.push(record);
    }
    return picked;
  }

  /** Takes a slot for an attempt about to start. */
  take(use: SlotUse): void {
    this.#inFlight.add(use.deliveryKey);
    this.#perOwner.set(use.ownerId, (this.#perOwner.get(use.ownerId) ?? 0) + 1);
    this.#perSubscription.set(use.subscriptionKey, (this.#perSubscription.get(use.subscriptionKey) ?? 0) + 1);
  }

  /** Gives the slot back; `timedOut` is null when the attempt ended without an outcome (stopping, storage). */
  give(use: SlotUse, timedOut: boolean | null): void {
    this.#inFlight.delete(use.deliveryKey);
    decrement(this.#perOwner, use.ownerId);
    decrement(this.#perSubscription, use.subscriptionKey);
    if (timedOut === null) return;
    if (!timedOut) {
      this.#timeouts.delete(use.subscriptionKey);
      return;
    }
    const count = (this.#timeouts.get(use.subscriptionKey) ?? 0) + 1;
    this.#timeouts.delete(use.subscriptionKey); // re-inserted as the newest
    this.#timeouts.set(use.subscriptionKey, count);
    if (this.#timeouts.size > REMEMBERED_RECEIVERS) this.#timeouts.delete(this.#timeouts.keys().next().value as string);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}
