// raceSignal: one caller stops waiting for a shared promise without cancelling it.
import { describe, expect, it } from 'vitest';
import { raceSignal } from './race-signal.js';

describe('raceSignal', () => {
  it('settles with the promise when the signal stays quiet', async () => {
    await expect(raceSignal(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(raceSignal(Promise.reject(new Error('down')), undefined)).rejects.toThrow('down');
  });

  it('rejects with the abort reason as soon as the caller aborts, leaving the shared promise to others', async () => {
    let finish: (value: string) => void = () => undefined;
    const shared = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const controller = new AbortController();
    const raced = raceSignal(shared, controller.signal);
    controller.abort(new Error('caller left'));
    await expect(raced).rejects.toThrow('caller left');
    finish('done');
    await expect(shared).resolves.toBe('done');
  });

  it('rejects at once for an already aborted signal without leaving an unhandled rejection behind', async () => {
    const shared = Promise.reject(new Error('later failure'));
    await expect(raceSignal(shared, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
