// The key store's decisions (DESIGN.md §14): first use proceeds; a repeat while in flight is in
// progress; once answered, the same fingerprint replays and another is "reused"; a released key runs
// again; an in-flight key whose request never finished is taken over once, after its lease.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { IdempotencyStore, IN_FLIGHT_LEASE_MS, keyRecordId } from './idempotency-store.js';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = new IdempotencyStore({ storage: createMemoryStorage({ clock }), clock, ttlMs: 86_400_000 });
  return { clock, store };
}

const answer = { status: 202, contentType: 'application/json; charset=utf-8', location: '/x', body: '{"jobId":"j"}' };

describe('IdempotencyStore', () => {
  it('proceeds once, is in progress until answered, then replays the same fingerprint and refuses another', async () => {
    const { store } = setup();
    expect(await store.begin('o', 'k', 'f1')).toEqual({ kind: 'proceed' });
    expect(await store.begin('o', 'k', 'f1')).toEqual({ kind: 'in-progress' });
    await store.complete('o', 'k', 'f1', answer);
    expect(await store.begin('o', 'k', 'f1')).toEqual({ kind: 'replay', answer });
    expect(await store.begin('o', 'k', 'f2')).toEqual({ kind: 'reused' });
    // Another owner's key of the same text is another key.
    expect(await store.begin('other', 'k', 'f2')).toEqual({ kind: 'proceed' });
  });

  it('lets a released key run again, and a key whose request never finished be taken over once after the lease', async () => {
    const { clock, store } = setup();
    await store.begin('o', 'released', 'f');
    await store.release('o', 'released');
    expect(await store.begin('o', 'released', 'f')).toEqual({ kind: 'proceed' });
    await store.begin('o', 'stuck', 'f');
    clock.advance(IN_FLIGHT_LEASE_MS);
    expect(await store.begin('o', 'stuck', 'f')).toEqual({ kind: 'proceed' });
    expect(await store.begin('o', 'stuck', 'f')).toEqual({ kind: 'in-progress' });
  });

  it('forgets keys after the TTL', async () => {
    const { clock, store } = setup();
    await store.begin('o', 'k', 'f');
    await store.complete('o', 'k', 'f', answer);
    clock.advance(86_400_000);
    expect(await store.begin('o', 'k', 'other')).toEqual({ kind: 'proceed' });
  });

  it('scopes a key to the method and the route with its ids, in a fixed-size id', () => {
    const id = keyRecordId('POST', '/api/bundles/h1/runs', 'key');
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keyRecordId('POST', '/api/bundles/h2/runs', 'key')).not.toBe(id);
    expect(keyRecordId('PUT', '/api/bundles/h1/runs', 'key')).not.toBe(id);
  });
});
