import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage } from '../platform/storage/index.js';
import { OUTSIDE_RUNS, RunCallCounts } from './run-call-counts.js';

describe('RunCallCounts (the run counters policies read, DESIGN.md §18)', () => {
  it('counts granted calls per run and per tool, and reads the run\'s spend in micro-dollars', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const counts = new RunCallCounts(storage.spend, () => clock.now());
    expect(await counts.read('alice', 'r1', 'clock')).toEqual(OUTSIDE_RUNS);
    await counts.granted('alice', 'r1', 'clock');
    await counts.granted('alice', 'r1', 'clock');
    await counts.granted('alice', 'r1', 'json');
    await storage.spend.add('alice', [{ period: 'run:r1', expiresAt: clock.now() + 60_000 }], 2_500_999);
    expect(await counts.read('alice', 'r1', 'clock')).toEqual({ toolCalls: 3, callsOfThisTool: 2, spentMicroUsd: 2_500 });
    expect(await counts.read('alice', 'r1', 'json')).toEqual({ toolCalls: 3, callsOfThisTool: 1, spentMicroUsd: 2_500 });
    // Another run, another owner: their own counters.
    expect(await counts.read('alice', 'r2', 'clock')).toEqual(OUTSIDE_RUNS);
    expect(await counts.read('bob', 'r1', 'clock')).toEqual(OUTSIDE_RUNS);
  });
});
