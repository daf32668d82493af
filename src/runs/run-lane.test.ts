import { describe, expect, it } from 'vitest';
import { RunLane, type LaneSlot } from './run-lane.js';

function lane(maxConcurrent: number, maxConcurrentPerOwner?: number) {
  const started: string[] = [];
  const slots = new Map<string, LaneSlot>();
  const l = new RunLane({ maxConcurrent, ...(maxConcurrentPerOwner === undefined ? {} : { maxConcurrentPerOwner }) });
  const add = (id: string, ownerId = 'alice'): void =>
    l.enqueue({
      id,
      ownerId,
      start: (slot) => {
        started.push(id);
        slots.set(id, slot);
      },
    });
  return { lane: l, started, slots, add };
}

describe('RunLane', () => {
  it('starts at most maxConcurrent runs, first in first out, and the next as soon as one releases', () => {
    const { lane: l, started, slots, add } = lane(2);
    for (const id of ['a', 'b', 'c', 'd']) add(id);
    expect(started).toEqual(['a', 'b']);
    expect(l.queued).toBe(2);
    slots.get('b')!.release();
    expect(started).toEqual(['a', 'b', 'c']);
    slots.get('b')!.release();
    expect(l.executing).toBe(2);
  });

  it('keeps one owner to maxConcurrentPerOwner while others overtake it', () => {
    const { started, slots, add } = lane(4, 1);
    add('a1', 'alice');
    add('a2', 'alice');
    add('b1', 'bob');
    expect(started).toEqual(['a1', 'b1']);
    slots.get('a1')!.release();
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('gives a parked run’s slot to the next run and takes it back on unpark without waiting', () => {
    const { lane: l, started, slots, add } = lane(1);
    add('a');
    add('b');
    slots.get('a')!.park();
    expect(started).toEqual(['a', 'b']);
    slots.get('a')!.unpark();
    expect(l.executing).toBe(2);
    add('c');
    slots.get('b')!.release();
    expect(started).toEqual(['a', 'b']);
    slots.get('a')!.release();
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('withdraws a queued run that has not started, and not one that has', () => {
    const { lane: l, started, add } = lane(1);
    add('a');
    add('b');
    expect(l.withdraw('a')).toBe(false);
    expect(l.withdraw('b')).toBe(true);
    expect(l.queued).toBe(0);
    expect(started).toEqual(['a']);
  });

  it('starts nothing after close and hands back what never started', () => {
    const { lane: l, started, slots, add } = lane(1);
    add('a');
    add('b');
    expect(l.close().map((job) => job.id)).toEqual(['b']);
    slots.get('a')!.release();
    add('c');
    expect(started).toEqual(['a']);
  });

  describe('fair between owners', () => {
    it('gives the next free slot to the owner with the fewest runs executing, not to whoever queued first', () => {
      const { started, slots, add } = lane(2);
      for (const id of ['a1', 'a2', 'a3', 'a4']) add(id, 'alice');
      add('b1', 'bob');
      expect(started).toEqual(['a1', 'a2']);
      slots.get('a1')!.release();
      // Alice has one executing, Bob none: Bob's run goes first although Alice's queued earlier.
      expect(started).toEqual(['a1', 'a2', 'b1']);
      slots.get('a2')!.release();
      expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    });

    it('delays another owner’s run by one slot’s turn at most, however many runs a flooding owner queued', () => {
      const { started, slots, add } = lane(4);
      for (let i = 1; i <= 40; i += 1) add(`a${i}`, 'alice');
      add('b1', 'bob');
      add('c1', 'carol');
      expect(started).toEqual(['a1', 'a2', 'a3', 'a4']);
      slots.get('a3')!.release();
      expect(started.at(-1)).toBe('b1');
      slots.get('a1')!.release();
      expect(started.at(-1)).toBe('c1');
    });

    it('breaks a tie between owners with as many executing by the oldest queued run', () => {
      const { started, slots, add } = lane(1);
      add('a1', 'alice');
      add('b1', 'bob');
      add('a2', 'alice');
      add('c1', 'carol');
      slots.get('a1')!.release();
      // Nobody executes: Bob's run is the oldest queued.
      expect(started).toEqual(['a1', 'b1']);
      slots.get('b1')!.release();
      expect(started).toEqual(['a1', 'b1', 'a2']);
    });

    it('counts a parked run as not executing, so its owner’s next run is not held back by it', () => {
      const { started, slots, add } = lane(2);
      add('a1', 'alice');
      add('b1', 'bob');
      add('b2', 'bob');
      add('a2', 'alice');
      slots.get('a1')!.park();
      // The free slot goes to Alice (none executing: a1 is parked), not to Bob's older b2.
      expect(started).toEqual(['a1', 'b1', 'a2']);
    });
  });
});
