import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { MemorySlotStore } from './memory-slot-store.js';

describe('MemorySlotStore', () => {
  it('answers acquire and release at once, not with promises, and never hands out an id twice', () => {
    const slots = new MemorySlotStore(new ManualClock());
    const a = slots.acquire('inv', 'alice', 2, 'i1', 1_000);
    const b = slots.acquire('inv', 'alice', 2, 'i1', 1_000);
    expect(typeof a).toBe('string');
    expect(b).not.toBe(a);
    expect(slots.acquire('inv', 'alice', 2, 'i1', 1_000)).toBeNull();
    expect(slots.release(a!)).toBeUndefined();
    const c = slots.acquire('inv', 'alice', 2, 'i1', 1_000);
    expect([a, b]).not.toContain(c);
  });

  it('keeps an emptied group until the next renew, then forgets it (bounded under many callers)', async () => {
    const slots = new MemorySlotStore(new ManualClock());
    for (const caller of ['a', 'b', 'c']) slots.release(slots.acquire('inv', caller, 1, 'i1', 1_000)!);
    expect(slots.trackedGroups).toBe(3);
    const held = slots.acquire('inv', 'd', 1, 'i1', 1_000);
    expect(await slots.renew('i1', 1_000)).toBe(1);
    expect(slots.trackedGroups).toBe(1);
    expect(held).not.toBeNull();
  });
});
