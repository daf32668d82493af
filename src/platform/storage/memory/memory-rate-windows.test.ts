import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { immediateRates } from '../immediate-answers.js';
import { MemoryRateWindows } from './memory-rate-windows.js';

describe('MemoryRateWindows', () => {
  it('answers the platform at once, not with a promise (the rate-limit hook then needs no microtask), and the port with the same answer', async () => {
    const windows = new MemoryRateWindows(new ManualClock());
    expect(immediateRates(windows)?.take('p', 'a', 2)).toEqual({ allowed: true, remaining: 1 });
    await expect(windows.take('p', 'a', 2)).resolves.toEqual({ allowed: true, remaining: 0 });
  });

  it('keeps at most maxKeys windows: under a flood of distinct callers the oldest start afresh', () => {
    const clock = new ManualClock();
    const windows = new MemoryRateWindows(clock, 3);
    expect(windows.takeNow('p', 'a', 1).allowed).toBe(true);
    expect(windows.takeNow('p', 'a', 1).allowed).toBe(false);
    for (const key of ['b', 'c', 'd']) windows.takeNow('p', key, 1);
    expect(windows.trackedKeys).toBe(3);
    expect(windows.takeNow('p', 'a', 1).allowed).toBe(true);
  });

  it('drops windows once their minute has passed', () => {
    const clock = new ManualClock();
    const windows = new MemoryRateWindows(clock);
    windows.takeNow('p', 'a', 1);
    clock.advance(60_000);
    windows.takeNow('p', 'b', 1);
    expect(windows.trackedKeys).toBe(1);
  });

  it('drops each window at its own minute, whichever window was at the front, and after the map emptied', () => {
    const clock = new ManualClock();
    const windows = new MemoryRateWindows(clock, 2);
    windows.takeNow('p', 'a', 1);
    clock.advance(10_000);
    windows.takeNow('p', 'b', 1);
    clock.advance(10_000);
    windows.takeNow('p', 'c', 1); // beyond maxKeys: a (the front) is forgotten
    expect(windows.trackedKeys).toBe(2);
    clock.advance(49_999);
    expect(windows.takeNow('p', 'b', 1)).toMatchObject({ allowed: false }); // b's minute: 10,000..69,999
    clock.advance(1);
    expect(windows.takeNow('p', 'b', 1)).toMatchObject({ allowed: true }); // a new minute for b
    expect(windows.trackedKeys).toBe(2); // c, b
    clock.advance(60_000);
    windows.takeNow('p', 'd', 1);
    expect(windows.trackedKeys).toBe(1);
    clock.advance(59_999);
    expect(windows.takeNow('p', 'd', 1)).toMatchObject({ allowed: false });
    clock.advance(1);
    expect(windows.takeNow('p', 'e', 1)).toMatchObject({ allowed: true });
    expect(windows.trackedKeys).toBe(1);
  });
});
