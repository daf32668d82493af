import { describe, expect, it } from 'vitest';
import { abortReason, untilAborted } from './until-aborted.js';

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
    expect(abortReason(AbortSignal.abort())).toMatchObject({ name: 'AbortError' });
  });
});

describe('untilAborted on a shared promise', () => {
  it('settles with the promise when the signal stays quiet', async () => {
    await expect(untilAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('down')), undefined)).rejects.toThrow('down');
  });

  it('rejects with the abort reason as soon as the caller aborts, leaving the shared promise to others', async () => {
    let finish: (value: string) => void = () => undefined;
    const shared = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const controller = new AbortController();
    const raced = untilAborted(shared, controller.signal);
    controller.abort(new Error('caller left'));
    await expect(raced).rejects.toThrow('caller left');
    finish('done');
    await expect(shared).resolves.toBe('done');
  });

  it('rejects at once for an already aborted signal without leaving an unhandled rejection behind', async () => {
    const shared = Promise.reject(new Error('later failure'));
    await expect(untilAborted(shared, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
