import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineExceeded, InvocationDeadline, type OnClientGone } from './invocation-deadline.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A client that can go away, and whether anyone still listens for it. */
function client() {
  const listeners = new Set<() => void>();
  const onGone: OnClientGone = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return { onGone, leave: () => listeners.forEach((listener) => listener()), listeners };
}

describe('InvocationDeadline', () => {
  it('rejects the raced work and aborts its signal when the deadline passes', async () => {
    const deadline = new InvocationDeadline(client().onGone, 1000);
    const raced = deadline.race(new Promise(() => undefined));
    vi.advanceTimersByTime(1000);
    await expect(raced).rejects.toBeInstanceOf(DeadlineExceeded);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(true);
    deadline.dispose();
  });

  it('aborts its signal when the client goes away, without claiming the deadline passed', async () => {
    const caller = client();
    const deadline = new InvocationDeadline(caller.onGone, 1000);
    let settle!: (value: string) => void;
    const raced = deadline.race(new Promise<string>((resolve) => (settle = resolve)));
    caller.leave();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    settle('done');
    await expect(raced).resolves.toBe('done');
    deadline.dispose();
  });

  it('aborts a signal read before the deadline, with DeadlineExceeded as its reason, and tells its listeners', () => {
    const deadline = new InvocationDeadline(client().onGone, 1000);
    const signal = deadline.signal;
    let heard: unknown;
    signal.addEventListener('abort', () => {
      heard = signal.reason;
    });
    expect(deadline.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(signal.aborted).toBe(true);
    expect(heard).toBeInstanceOf(DeadlineExceeded);
    expect(deadline.signal).toBe(signal);
    deadline.dispose();
  });

  it('says it is aborted without building a signal, and one built afterwards is born aborted (AbortError when the client left)', () => {
    const caller = client();
    const deadline = new InvocationDeadline(caller.onGone, 1000);
    caller.leave();
    expect(deadline.aborted).toBe(true);
    const signal = deadline.signal;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('AbortError');
    deadline.dispose();
  });

  it('builds no AbortController until its signal is read, expiry and departure included, and then exactly one', () => {
    let built = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          built += 1;
        }
      },
    );
    try {
      const caller = client();
      const deadline = new InvocationDeadline(caller.onGone, 1000);
      caller.leave();
      vi.advanceTimersByTime(1000);
      expect(deadline.aborted).toBe(true);
      expect(built).toBe(0);
      expect(deadline.signal).toBe(deadline.signal);
      expect(built).toBe(1);
      deadline.dispose();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('leaves no timer and no client listener behind once disposed', () => {
    const caller = client();
    const deadline = new InvocationDeadline(caller.onGone, 30_000);
    expect(vi.getTimerCount()).toBe(1);
    expect(caller.listeners.size).toBe(1);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(caller.listeners.size).toBe(0);
    vi.advanceTimersByTime(30_000);
    expect(deadline.signal.aborted).toBe(false);
  });

  it('still rejects a second race at the deadline after the first settled', async () => {
    const deadline = new InvocationDeadline(client().onGone, 1000);
    await deadline.race(Promise.resolve('first'));
    const second = deadline.race(new Promise(() => undefined));
    await Promise.resolve();
    vi.advanceTimersByTime(1000);
    await expect(second).rejects.toBeInstanceOf(DeadlineExceeded);
    deadline.dispose();
  });
});
