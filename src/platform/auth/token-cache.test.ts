import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { principalFromClaims } from './principal-from-claims.js';
import { TokenCache } from './token-cache.js';

const alice = principalFromClaims({ sub: 'alice' })!;
const bob = principalFromClaims({ sub: 'bob' })!;

describe('TokenCache', () => {
  it('answers a stored digest until the clock reaches its expiry', () => {
    const clock = new ManualClock();
    const cache = new TokenCache({ clock });
    cache.set('d1', alice, clock.now() + 1000);
    clock.advance(999);
    expect(cache.get('d1')).toBe(alice);
    clock.advance(1);
    expect(cache.get('d1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not store an entry that has already expired', () => {
    const clock = new ManualClock();
    const cache = new TokenCache({ clock });
    cache.set('d1', alice, clock.now());
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry beyond its bound', () => {
    const clock = new ManualClock();
    const cache = new TokenCache({ clock, maxEntries: 2 });
    cache.set('d1', alice, clock.now() + 10_000);
    cache.set('d2', bob, clock.now() + 10_000);
    cache.get('d1');
    cache.set('d3', bob, clock.now() + 10_000);
    expect(cache.get('d1')).toBe(alice);
    expect(cache.get('d2')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
