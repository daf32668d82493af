import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { principalFromClaims } from './principal-from-claims.js';
import { DEFAULT_TOKEN_CACHE_SIZE, TokenCache } from './token-cache.js';

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

  it('stays within its bound under a flood of distinct tokens, each kept only until its own expiry', () => {
    const clock = new ManualClock();
    const cache = new TokenCache({ clock, maxEntries: 100 });
    for (let i = 0; i < 20_000; i += 1) cache.set(`flood-${i}`, alice, clock.now() + 1000 + i);
    expect(cache.size).toBe(100);
    expect(cache.get('flood-19999')).toBe(alice);
    expect(cache.get('flood-0')).toBeUndefined();
    clock.advance(1000 + 19_999);
    expect(cache.get('flood-19999')).toBeUndefined();
  });

  it('is bounded by default', () => {
    const clock = new ManualClock();
    const cache = new TokenCache({ clock });
    for (let i = 0; i < DEFAULT_TOKEN_CACHE_SIZE + 500; i += 1) cache.set(`d${i}`, bob, clock.now() + 60_000);
    expect(cache.size).toBe(DEFAULT_TOKEN_CACHE_SIZE);
  });
});
