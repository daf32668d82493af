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

describe('startSweeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps once per interval', async () => {
    const sweep = vi.fn(() => Promise.resolve());
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_001);
    expect(sweep).toHaveBeenCalledTimes(3);
    sweeper.stop();
  });

  it('skips ticks while a sweep is still running instead of overlapping it', async () => {
    const pending = deferred();
    const sweep = vi.fn(() => pending.promise);
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    pending.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweep).toHaveBeenCalledTimes(2);
    sweeper.stop();
  });

  it('reports a rejected or throwing sweep and keeps sweeping', async () => {
    const rejected = new Error('rejected');
    const thrown = new Error('thrown');
    const sweep = vi
      .fn<() => Promise<void>>()
      .mockImplementationOnce(() => Promise.reject(rejected))
      .mockImplementationOnce(() => {
        throw thrown;
      })
      .mockImplementation(() => Promise.resolve());
    const onError = vi.fn();
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, onError });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onError.mock.calls).toEqual([[rejected], [thrown]]);
    expect(sweep).toHaveBeenCalledTimes(3);
    sweeper.stop();
  });

  it('stops sweeping after stop and does not hold the process open', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const sweep = vi.fn(() => Promise.resolve());
    const sweeper = startSweeper({ intervalMs: 1_000, sweep, onError: () => undefined });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    sweeper.stop();
    sweeper.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweep).not.toHaveBeenCalled();
  });

  it('refuses a non-positive interval', () => {
    expect(() => startSweeper({ intervalMs: 0, sweep: () => Promise.resolve(), onError: () => undefined })).toThrow(RangeError);
  });
});
