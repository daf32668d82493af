import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../platform/storage/index.js';
import { DeliverySlots, slotUseOf, TIMEOUTS_BEFORE_BACKOFF } from './delivery-slots.js';
import type { DeliveryData } from './webhook-delivery.js';

let due = 0;
/** A due delivery of `ownerId` to its subscription `webhookId`, due one millisecond after the previous one. */
function delivery(ownerId: string, id: string, webhookId = `${ownerId}-hook`): StoredRecord<DeliveryData> {
  due += 1;
  return {
    collection: 'webhook-delivery',
    ownerId,
    id,
    scope: webhookId,
    state: 'Pending',
    createdAt: due,
    expiresAt: null,
    version: 1,
    leaseHolder: 'webhooks:due',
    leaseExpiresAt: due,
    data: { deliveryId: id, webhookId, eventId: `evt-${id}`, type: 't', body: '{}', attempt: 0, responseStatus: null, durationMs: null, nextAttemptAt: due, createdAt: due },
  };
}
/** Attempts of `record`'s subscription that time out, as many in a row as back it off. */
function timeOutRepeatedly(slots: DeliverySlots, record: StoredRecord<DeliveryData>): void {
  for (let i = 0; i < TIMEOUTS_BEFORE_BACKOFF; i += 1) {
    slots.take(slotUseOf(record));
    slots.give(slotUseOf(record), true);
  }
}
const ids = (records: readonly StoredRecord<DeliveryData>[]): string[] => records.map((record) => record.id);

describe('sharing delivery slots among owners', () => {
  it('gives the next slot to the owner with the fewest attempts in flight, oldest delivery first on a tie', () => {
    const slots = new DeliverySlots(32);
    const busy = [delivery('mallory', 'm1'), delivery('mallory', 'm2'), delivery('mallory', 'm3')];
    for (const record of busy) slots.take(slotUseOf(record));
    const waiting = [delivery('mallory', 'm4'), delivery('mallory', 'm5'), delivery('alice', 'a1'), delivery('bob', 'b1'), delivery('alice', 'a2')];
    expect(ids(slots.pick(waiting, 3))).toEqual(['a1', 'b1', 'a2']);
  });

  it('lets one owner hold at most half the slots, however long its backlog, so another owner always finds one free', () => {
    const slots = new DeliverySlots(8);
    const backlog = Array.from({ length: 10 }, (_, i) => delivery('mallory', `m${i}`));
    const first = slots.pick(backlog, 8);
    expect(first).toHaveLength(4);
    for (const record of first) slots.take(slotUseOf(record));
    expect(slots.pick(backlog.slice(4), slots.free)).toEqual([]);
    expect(ids(slots.pick([...backlog.slice(4), delivery('alice', 'a1')], slots.free))).toEqual(['a1']);
  });

  it('gives one owner every slot it may hold when nobody else waits', () => {
    const slots = new DeliverySlots(32);
    const backlog = Array.from({ length: 40 }, (_, i) => delivery('alice', `a${i}`, `hook-${i % 3}`));
    expect(slots.pick(backlog, 32)).toHaveLength(16);
    expect(slots.candidatesPerOwner(32)).toBe(16);
  });

  it('never picks a delivery already in flight here, even when a scan finds it due again', () => {
    const slots = new DeliverySlots(32);
    const inFlight = delivery('alice', 'a1');
    slots.take(slotUseOf(inFlight));
    expect(slots.isInFlight(slotUseOf(inFlight))).toBe(true);
    expect(ids(slots.pick([inFlight, delivery('alice', 'a2')], 5))).toEqual(['a2']);
    slots.give(slotUseOf(inFlight), false);
    expect(slots.isInFlight(slotUseOf(inFlight))).toBe(false);
    expect(slots.free).toBe(32);
  });
});

describe('a receiver that keeps timing out', () => {
  it(`is attempted one delivery at a time after ${TIMEOUTS_BEFORE_BACKOFF} timeouts in a row, without holding back another receiver of the same owner`, () => {
    const slots = new DeliverySlots(32);
    const slow = (id: string) => delivery('alice', id, 'slow');
    for (let i = 0; i < TIMEOUTS_BEFORE_BACKOFF; i += 1) {
      const record = slow(`s${i}`);
      slots.take(slotUseOf(record));
      slots.give(slotUseOf(record), true);
    }
    expect(slots.isBackedOff(slotUseOf(slow('probe')).subscriptionKey)).toBe(true);
    const picked = slots.pick([slow('s10'), slow('s11'), slow('s12'), delivery('alice', 'f1', 'fast'), delivery('alice', 'f2', 'fast')], 10);
    expect(ids(picked)).toEqual(['s10', 'f1', 'f2']);
    for (const record of picked) slots.take(slotUseOf(record));
    expect(slots.pick([slow('s11'), slow('s12')], 10)).toEqual([]);
  });

  it('is attempted freely again once one of its attempts is answered', () => {
    const slots = new DeliverySlots(32);
    const record = delivery('alice', 'x', 'slow');
    timeOutRepeatedly(slots, record);
    slots.take(slotUseOf(record));
    slots.give(slotUseOf(record), false);
    expect(slots.isBackedOff(slotUseOf(record).subscriptionKey)).toBe(false);
    expect(slots.pick([delivery('alice', 'y', 'slow'), delivery('alice', 'z', 'slow')], 10)).toHaveLength(2);
  });

  it('keeps its count when an attempt ends without an outcome (the instance stopping)', () => {
    const slots = new DeliverySlots(32);
    const record = delivery('alice', 'x', 'slow');
    timeOutRepeatedly(slots, record);
    slots.take(slotUseOf(record));
    slots.give(slotUseOf(record), null);
    expect(slots.isBackedOff(slotUseOf(record).subscriptionKey)).toBe(true);
  });
});
