import { describe, expect, it } from 'vitest';
import { collectRepeatedly } from '../../../test/helpers/force-gc.js';
import { deadlineSignal } from './deadline-signal.js';

const aborted = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

describe('deadlineSignal', () => {
  it('aborts with a TimeoutError once the deadline passes, and says it timed out', async () => {
    const deadline = deadlineSignal(new AbortController().signal, 20);
    const reason = await aborted(deadline.signal);
    expect(reason).toMatchObject({ name: 'TimeoutError' });
    expect(deadline.timedOut).toBe(true);
  });

  it('aborts with the parent’s reason when the parent aborts first, and not as a timeout', async () => {
    const parent = new AbortController();
    const deadline = deadlineSignal(parent.signal, 60_000);
    parent.abort(new Error('stopping'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toMatchObject({ message: 'stopping' });
    expect(deadline.timedOut).toBe(false);
  });

  it('starts aborted under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort(new Error('gone'));
    const deadline = deadlineSignal(parent.signal, 60_000);
    expect(deadline.signal.reason).toMatchObject({ message: 'gone' });
  });

  it('never aborts once cleared, neither by the deadline nor by the parent', async () => {
    const parent = new AbortController();
    const deadline = deadlineSignal(parent.signal, 10);
    deadline.clear();
    const late = deadlineSignal(undefined, 40);
    await aborted(late.signal); // well past the first one's deadline
    parent.abort();
    expect(deadline.signal.aborted).toBe(false);
  });

  // The fault of issue 35: AbortSignal.any([parent, AbortSignal.timeout(ms)]) holds the timeout signal
  // weakly, so on Node 20 a collection loses it and the combined signal never aborts.
  it('still aborts at its deadline while full garbage collections run, with nothing else holding it', async () => {
    const stop = collectRepeatedly(5);
    try {
      const parent = new AbortController();
      const outcome = await new Promise<unknown>((resolve) => {
        // Only the listener's closure and the helper's timer can keep the signal alive.
        deadlineSignal(parent.signal, 150).signal.addEventListener('abort', (event) => resolve((event.target as AbortSignal).reason), { once: true });
      });
      expect(outcome).toMatchObject({ name: 'TimeoutError' });
    } finally {
      stop();
    }
  });
});
