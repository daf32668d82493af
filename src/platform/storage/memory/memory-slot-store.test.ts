import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { immediateSlots } from '../immediate-answers.js';
import { MemorySlotStore } from './memory-slot-store.js';

describe('MemorySlotStore', () => {
  it('answers the platform’s acquire and release at once, not with promises, and never hands out an id twice', async () => {
    const store = new MemorySlotStore(new ManualClock());
    const slots = immediateSlots(store)!;
    const a = slots.acquire('inv', 'alice', 2, 'i1', 1_000);
    const b = await store.acquire('inv', 'alice', 2, 'i1', 1_000);
    expect(typeof a).toBe('string');
    expect(b).not.toBe(a);
    expect(slots.acquire('inv', 'alice', 2, 'i1', 1_000)).toBeNull();
    expect(slots.release(a!)).toBeUndefined();
    const c = slots.acquire('inv', 'alice', 2, 'i1', 1_000);
    expect([a, b]).not.toContain(c);
  });

  it('keeps an emptied group until the next renew, then forgets it (bounded under many callers)', async () => {
    const slots = new MemorySlotStore(new ManualClock());
    for (const caller of ['a', 'b', 'c']) await slots.release(slots.acquireNow('inv', caller, 1, 'i1', 1_000)!);
    expect(slots.trackedGroups).toBe(3);
    const held = slots.acquireNow('inv', 'd', 1, 'i1', 1_000);
    expect(await slots.renew('i1', 1_000)).toBe(1);
    expect(slots.trackedGroups).toBe(1);
    expect(held).not.toBeNull();
  });
});
