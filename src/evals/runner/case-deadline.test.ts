import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaseDeadlines } from './case-deadline.js';

describe('eval case deadlines', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('abort a case with a TimeoutError when its timeout passes, and say so', () => {
    const deadline = new CaseDeadlines(new AbortController().signal).open(1000);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.timedOut()).toBe(true);
  });

  it('abort every open case with the host reason when the host stops, which is not a timeout', () => {
    const host = new AbortController();
    const deadlines = new CaseDeadlines(host.signal);
    const open = [deadlines.open(1000), deadlines.open(2000)];
    const closed = deadlines.open(1000);
    closed.close();
    const reason = new Error('host stopping');
    host.abort(reason);
    for (const deadline of open) {
      expect(deadline.signal.reason).toBe(reason);
      expect(deadline.timedOut()).toBe(false);
    }
    expect(closed.signal.aborted).toBe(false);
  });

  it('open a case already aborted under a host that already stopped', () => {
    const host = new AbortController();
    host.abort();
    expect(new CaseDeadlines(host.signal).open(1000).signal.aborted).toBe(true);
  });

  it('leave no timer behind once a case closes, and no host listener once the run closes', () => {
    const host = new AbortController();
    const add = vi.spyOn(host.signal, 'addEventListener');
    const remove = vi.spyOn(host.signal, 'removeEventListener');
    const deadlines = new CaseDeadlines(host.signal);
    const cases = [deadlines.open(1000), deadlines.open(1000), deadlines.open(1000)];
    expect(vi.getTimerCount()).toBe(3);
    for (const deadline of cases) deadline.close();
    expect(vi.getTimerCount()).toBe(0);
    deadlines.close();
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]![1]);
  });
});
