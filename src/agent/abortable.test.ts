import { describe, expect, it } from 'vitest';
import { abortError, untilAborted } from './abortable.js';

describe('untilAborted', () => {
  it('settles like the promise while the signal stays quiet', async () => {
    const signal = new AbortController().signal;
    await expect(untilAborted(Promise.resolve(3), signal)).resolves.toBe(3);
    await expect(untilAborted(Promise.reject(new Error('no')), signal)).rejects.toThrow('no');
  });

  it('rejects with the abort reason as soon as the signal aborts, even if the promise never settles', async () => {
    const controller = new AbortController();
    const waiting = untilAborted(new Promise<never>(() => undefined), controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });

  it('rejects at once for an already aborted signal, with an AbortError when the reason is not an Error', async () => {
    const controller = new AbortController();
    controller.abort('just a string');
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(abortError(AbortSignal.abort())).toMatchObject({ name: 'AbortError' });
  });
});
