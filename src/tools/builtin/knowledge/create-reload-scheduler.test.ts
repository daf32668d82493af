import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReloadScheduler } from './create-reload-scheduler.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('reload scheduler', () => {
  it('turns a burst of pokes into one reload after the quiet period', async () => {
    const reload = vi.fn(() => Promise.resolve());
    const scheduler = createReloadScheduler(50, reload);
    scheduler.poke();
    await vi.advanceTimersByTimeAsync(40);
    scheduler.poke();
    await vi.advanceTimersByTimeAsync(49);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await scheduler.idle();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('runs once more after a reload that was overtaken by a change', async () => {
    let finish: () => void = () => undefined;
    const reload = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const scheduler = createReloadScheduler(10, reload);
    scheduler.poke();
    await vi.advanceTimersByTimeAsync(10);
    scheduler.poke();
    await vi.advanceTimersByTimeAsync(10);
    expect(reload).toHaveBeenCalledOnce();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(reload).toHaveBeenCalledTimes(2);
    finish();
    await scheduler.idle();
  });

  it('does nothing after it is cancelled', async () => {
    const reload = vi.fn(() => Promise.resolve());
    const scheduler = createReloadScheduler(10, reload);
    scheduler.poke();
    scheduler.cancel();
    scheduler.poke();
    await vi.advanceTimersByTimeAsync(100);
    expect(reload).not.toHaveBeenCalled();
  });
});
