import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSweeper } from './start-sweeper.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const quiet = { warn: () => undefined, info: () => undefined };

describe('startSweeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps once per interval', async () => {
    const sweep = vi.fn(() => Promise.resolve());
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, name: 'the sweep', log: quiet });
    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_001);
    expect(sweep).toHaveBeenCalledTimes(3);
    sweeper.stop();
  });

  it('skips ticks while a sweep is still running instead of overlapping it', async () => {
    const pending = deferred();
    const sweep = vi.fn(() => pending.promise);
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, name: 'the sweep', log: quiet });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    pending.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweep).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it('keeps sweeping through rejected and throwing sweeps, logging the first failure and the recovery only', async () => {
    const rejected = new Error('rejected');
    const thrown = new Error('thrown');
    const sweep = vi
      .fn<() => Promise<void>>()
      .mockImplementationOnce(() => Promise.reject(rejected))
      .mockImplementationOnce(() => {
        throw thrown;
      })
      .mockImplementation(() => Promise.resolve());
    const lines: Array<[string, object, string]> = [];
    const log = { warn: (o: object, m: string) => void lines.push(['warn', o, m]), info: (o: object, m: string) => void lines.push(['info', o, m]) };
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, name: 'the sweep', log });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(lines).toEqual([
      ['warn', { err: rejected }, 'the sweep failed; retrying until it works again'],
      ['info', {}, 'the sweep works again'],
    ]);
    expect(sweep).toHaveBeenCalledTimes(4);
    sweeper.stop();
  });

  it('stops sweeping after stop and does not hold the process open', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const sweep = vi.fn(() => Promise.resolve());
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, name: 'the sweep', log: quiet });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    sweeper.stop();
    sweeper.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweep).not.toHaveBeenCalled();
  });

  it('refuses a non-positive interval', () => {
    expect(() => startSweeper({ intervalMs: 0, sweep: () => Promise.resolve(), name: 'the sweep', log: quiet })).toThrow(RangeError);
  });
});
