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
});
