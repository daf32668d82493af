import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { MemoryTtlStore } from './memory-ttl-store.js';

function build(options: { maxEntries?: number } = {}) {
  const clock = new ManualClock();
  const evicted: Array<[string, string]> = [];
  const store = new MemoryTtlStore<string>({ clock, ...options, onEvict: (key, value) => evicted.push([key, value]) });
  return { clock, store, evicted };
}

describe('MemoryTtlStore', () => {
  it('returns a value until its ttl elapses and nothing from that instant on', async () => {
    const { clock, store } = build();
    await store.set('a', 'A', 1_000);
    clock.advance(999);
    expect(await store.get('a')).toBe('A');
    expect(await store.expiresAt('a')).toBe(clock.now() + 1);
    clock.advance(1);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.expiresAt('a')).toBeUndefined();
  });

  it('removes an expired entry on read and reports it through onEvict once', async () => {
    const { clock, store, evicted } = build();
    await store.set('a', 'A', 1_000);
    clock.advance(1_000);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('a')).toBeUndefined();
    expect(evicted).toEqual([['a', 'A']]);
    expect(await store.sweep()).toEqual([]);
  });

  it('slides the expiry from now on touch and returns the value', async () => {
    const { clock, store } = build();
    await store.set('a', 'A', 1_000);
    clock.advance(800);
    expect(await store.touch('a', 1_000)).toBe('A');
    expect(await store.expiresAt('a')).toBe(clock.now() + 1_000);
    clock.advance(800);
    expect(await store.get('a')).toBe('A');
  });

  it('does not revive an absent or expired entry on touch', async () => {
    const { clock, store } = build();
    expect(await store.touch('missing', 1_000)).toBeUndefined();
    await store.set('a', 'A', 1_000);
    clock.advance(1_000);
    expect(await store.touch('a', 1_000)).toBeUndefined();
    expect(await store.size()).toBe(0);
  });

  it('sweeps expired entries and returns their values, keeping live ones', async () => {
    const { clock, store, evicted } = build();
    await store.set('short', 'S', 1_000);
    await store.set('long', 'L', 5_000);
    clock.advance(1_000);
    expect(await store.size()).toBe(1);
    expect(await store.values()).toEqual(['L']);
    expect(await store.sweep()).toEqual(['S']);
    expect(await store.sweep()).toEqual([]);
    expect(await store.get('long')).toBe('L');
    expect(evicted).toEqual([]);
  });

  it('deletes a live entry and says whether one was there', async () => {
    const { clock, store } = build();
    await store.set('a', 'A', 1_000);
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    await store.set('b', 'B', 1_000);
    clock.advance(1_000);
    expect(await store.delete('b')).toBe(false);
  });

  it('replaces the value and expiry of an existing key on set', async () => {
    const { clock, store } = build();
    await store.set('a', 'A', 1_000);
    await store.set('a', 'A2', 3_000);
    expect(await store.get('a')).toBe('A2');
    expect(await store.expiresAt('a')).toBe(clock.now() + 3_000);
    expect(await store.size()).toBe(1);
  });

  it('evicts the least recently set or touched entry beyond maxEntries and reports it', async () => {
    const { store, evicted } = build({ maxEntries: 2 });
    await store.set('a', 'A', 1_000);
    await store.set('b', 'B', 1_000);
    await store.touch('a', 1_000);
    await store.set('c', 'C', 1_000);
    expect(evicted).toEqual([['b', 'B']]);
    expect(await store.values()).toEqual(['A', 'C']);
  });

  it('refuses a non-positive ttl and a bad maxEntries', async () => {
    const { store } = build();
    await expect(store.set('a', 'A', 0)).rejects.toThrow(RangeError);
    await expect(store.touch('a', Number.NaN)).rejects.toThrow(RangeError);
    expect(() => new MemoryTtlStore({ clock: new ManualClock(), maxEntries: 0 })).toThrow(RangeError);
  });
});
