import { describe, expect, it } from 'vitest';
import { ConcurrencySlots } from './concurrency-slots.js';

describe('ConcurrencySlots', () => {
  it('refuses at once when the key is at its limit', () => {
    const slots = new ConcurrencySlots({ limitPerKey: 2 });
    expect(slots.tryAcquire('owner')).not.toBeNull();
    expect(slots.tryAcquire('owner')).not.toBeNull();
    expect(slots.tryAcquire('owner')).toBeNull();
    expect(slots.inUse('owner')).toBe(2);
    expect(slots.tryAcquire('other')).not.toBeNull();
  });

  it('frees a slot on release', () => {
    const slots = new ConcurrencySlots({ limitPerKey: 1 });
    const lease = slots.tryAcquire('owner');
    lease!.release();
    expect(slots.inUse('owner')).toBe(0);
    expect(slots.total()).toBe(0);
    expect(slots.tryAcquire('owner')).not.toBeNull();
  });

  it('ignores a second release of the same lease', () => {
    const slots = new ConcurrencySlots({ limitPerKey: 2 });
    const first = slots.tryAcquire('owner')!;
    slots.tryAcquire('owner');
    first.release();
    first.release();
    expect(slots.inUse('owner')).toBe(1);
    expect(slots.total()).toBe(1);
  });

  it('refuses every key once the global limit is reached', () => {
    const slots = new ConcurrencySlots({ limitPerKey: 5, globalLimit: 2 });
    const a = slots.tryAcquire('a')!;
    slots.tryAcquire('b');
    expect(slots.tryAcquire('c')).toBeNull();
    expect(slots.tryAcquire('a')).toBeNull();
    expect(slots.total()).toBe(2);
    a.release();
    expect(slots.tryAcquire('c')).not.toBeNull();
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new ConcurrencySlots({ limitPerKey: 0 })).toThrow(RangeError);
    expect(() => new ConcurrencySlots({ limitPerKey: 1, globalLimit: -1 })).toThrow(RangeError);
  });
});
