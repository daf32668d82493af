import { describe, expect, it } from 'vitest';
import { eachAtMost } from './write-staging-tree.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('eachAtMost (staging writes, a few files at once)', () => {
  it('runs every item, never more than the limit at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await eachAtMost([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, async (n) => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBe(4);
  });

  it('starts nothing after the first failure, waits for the calls under way, then rejects with that failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const first = new Error('entry 2 over budget');
    const run = eachAtMost([1, 2, 3, 4, 5, 6, 7, 8], 3, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw first;
      await tick();
      if (n === 3) throw new Error('a later failure');
      finished.push(n);
    });
    await expect(run).rejects.toBe(first);
    expect(started).toEqual([1, 2, 3]);
    expect(finished).toEqual([1]);
  });
});
