import { describe, expect, it } from 'vitest';
import { runPool } from './run-pool.js';

describe('runPool', () => {
  it('never has more than `concurrency` items in flight and runs every item once', async () => {
    let active = 0;
    let peak = 0;
    const seen: number[] = [];
    await runPool([...Array(20).keys()], 3, async (item) => {
      active += 1;
      peak = Math.max(peak, active);
      await Promise.resolve();
      seen.push(item);
      active -= 1;
    });
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it('stops taking items after a failure and rethrows it once the others settled', async () => {
    const started: number[] = [];
    await expect(
      runPool([0, 1, 2, 3, 4, 5], 2, async (item) => {
        started.push(item);
        await Promise.resolve();
        if (item === 1) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(started.length).toBeLessThan(6);
  });

  it('takes no more items once `stop` aborts, lets those in flight finish, and says how many it took', async () => {
    const stop = new AbortController();
    const done: number[] = [];
    const taken = await runPool([...Array(10).keys()], 2, async (item) => {
      if (item === 2) stop.abort();
      await Promise.resolve();
      done.push(item);
    }, stop.signal);
    expect(taken).toBe(3);
    expect(done.sort()).toEqual([0, 1, 2]);
  });
});
