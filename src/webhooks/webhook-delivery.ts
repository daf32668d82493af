// A delivery: one event on its way to one subscription, stored as a record in its owner's partition
// (scope: the subscription's id) — Pending, then Delivered or Failed. It is also the outbox entry: it
// is written in the commit that caused the event, due at once. A Pending delivery is leased to nobody
// (DUE_HOLDER) until its next attempt is due, so the storage's lapsed-lease scan is the query for
// "due now"; an instance attempting it holds the lease, which is what makes one attempt at a time
// across instances. The body is kept as the exact bytes sent, so every retry signs the same body.
import { isoInstant } from '../platform/clock/index.js';
import type { EpochMs, OutboxEntry } from '../platform/storage/index.js';

export const DELIVERY_COLLECTION = 'webhook-delivery';
/** The lease holder of a Pending delivery nobody is attempting: its lease lapses when the attempt is due. */
export const DUE_HOLDER = 'webhooks:due';
export const deliveryStates = ['Pending', 'Delivered', 'Failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export interface DeliveryData {
  readonly deliveryId: string;
  readonly webhookId: string;
  /** The `webhook-id` header: the event's id, the same for every attempt. */
  readonly eventId: string;
  readonly type: string;
  /** The JSON body, as sent. */
  readonly body: string;
  /** Attempts made so far. */
  readonly attempt: number;
  readonly responseStatus: number | null;
  readonly durationMs: number | null;
  readonly nextAttemptAt: EpochMs | null;
  readonly createdAt: EpochMs;
}

/** The deliveries log's item (DESIGN.md §14). */
export interface DeliveryResource {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly type: string;
  readonly attempt: number;
  readonly status: DeliveryState;
  readonly responseStatus: number | null;
  readonly durationMs: number | null;
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
}

export interface NewDelivery {
  readonly ownerId: string;
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly eventId: string;
  readonly type: string;
  readonly body: string;
  readonly at: EpochMs;
}

/** A delivery due at once, as an outbox entry (or a record to insert). */
export function newDelivery(delivery: NewDelivery): OutboxEntry<DeliveryData> {
  const { ownerId, webhookId, deliveryId, eventId, type, body, at } = delivery;
  return {
    collection: DELIVERY_COLLECTION,
    ownerId,
    id: deliveryId,
    scope: webhookId,
    state: 'Pending',
    createdAt: at,
    lease: { holder: DUE_HOLDER, expiresAt: at },
    data: { deliveryId, webhookId, eventId, type, body, attempt: 0, responseStatus: null, durationMs: null, nextAttemptAt: at, createdAt: at },
  };
}

/** The event body every attempt sends: type, when it happened, and what the event says. */
export function eventBody(type: string, at: EpochMs, data: object): string {
  return JSON.stringify({ type, timestamp: isoInstant(at), data });
}

export function toDeliveryResource(data: DeliveryData, state: string | null): DeliveryResource {
  return {
    deliveryId: data.deliveryId,
    eventId: data.eventId,
    type: data.type,
    attempt: data.attempt,
    status: (deliveryStates as readonly (string | null)[]).includes(state) ? (state as DeliveryState) : 'Pending',
    responseStatus: data.responseStatus,
    durationMs: data.durationMs,
    nextAttemptAt: data.nextAttemptAt === null ? null : isoInstant(data.nextAttemptAt),
    createdAt: isoInstant(data.createdAt),
  };
}
