import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openCallSignal } from './call-signal.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('openCallSignal', () => {
  it('aborts what is still in flight when closed before the call completed', () => {
    const call = openCallSignal(new AbortController().signal, 1000);
    call.close(false);
    expect(call.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves a completed call alone when closed, and releases its timer and listener', () => {
    const request = new AbortController();
    const call = openCallSignal(request.signal, 1000);
    call.close(true);
    expect(call.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    request.abort();
    expect(call.signal.aborted).toBe(false);
  });

  it('names a timeout and a cancellation apart', () => {
    const timed = openCallSignal(new AbortController().signal, 1000);
    vi.advanceTimersByTime(1000);
    expect([timed.signal.aborted, timed.timedOut(), timed.cancelled()]).toEqual([true, true, false]);
    const request = new AbortController();
    const cancelled = openCallSignal(request.signal, 1000);
    request.abort();
    expect([cancelled.signal.aborted, cancelled.timedOut(), cancelled.cancelled()]).toEqual([true, false, true]);
    timed.close(false);
    cancelled.close(false);
  });
});
