import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { MemoryRateWindows } from './memory-rate-windows.js';

describe('MemoryRateWindows', () => {
  it('keeps at most maxKeys windows: under a flood of distinct callers the oldest start afresh', async () => {
    const clock = new ManualClock();
    const windows = new MemoryRateWindows(clock, 3);
    expect((await windows.take('p', 'a', 1)).allowed).toBe(true);
    expect((await windows.take('p', 'a', 1)).allowed).toBe(false);
    for (const key of ['b', 'c', 'd']) await windows.take('p', key, 1);
    expect(windows.trackedKeys).toBe(3);
    expect((await windows.take('p', 'a', 1)).allowed).toBe(true);
  });

  it('drops windows once their minute has passed', async () => {
    const clock = new ManualClock();
    const windows = new MemoryRateWindows(clock);
    await windows.take('p', 'a', 1);
    clock.advance(60_000);
    await windows.take('p', 'b', 1);
    expect(windows.trackedKeys).toBe(1);
  });
});
