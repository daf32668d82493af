import { describe, expect, it } from 'vitest';
import { Dispatcher } from './dispatcher.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('Dispatcher', () => {
  it('runs at most maxConcurrent jobs, first in first out, starting the next as soon as one ends', async () => {
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const dispatcher = new Dispatcher<string>({
      maxConcurrent: 2,
      execute: (job) => {
        started.push(job);
        const g = gate();
        gates.set(job, g);
        return g.promise;
      },
      onError: () => undefined,
    });
    for (const job of ['a', 'b', 'c', 'd']) dispatcher.enqueue(job);
    expect(started).toEqual(['a', 'b']);
    expect(dispatcher.queued).toBe(2);
    gates.get('b')!.open();
    await gates.get('b')!.promise;
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c']);
    expect(dispatcher.running).toBe(2);
  });

  it('reports a failing job and keeps going', async () => {
    const errors: unknown[] = [];
    const done: string[] = [];
    const dispatcher = new Dispatcher<string>({
      maxConcurrent: 1,
      execute: async (job) => {
        if (job === 'bad') throw new Error('boom');
        done.push(job);
      },
      onError: (err) => errors.push(err),
    });
    dispatcher.enqueue('bad');
    dispatcher.enqueue('good');
    await dispatcher.close().then(() => undefined);
    expect(errors).toHaveLength(1);
  });

  it('on close hands back the jobs it never started and refuses new ones', async () => {
    const g = gate();
    const dispatcher = new Dispatcher<string>({ maxConcurrent: 1, execute: () => g.promise, onError: () => undefined });
    dispatcher.enqueue('running');
    dispatcher.enqueue('waiting');
    const closing = dispatcher.close();
    g.open();
    expect(await closing).toEqual(['waiting']);
    expect(() => dispatcher.enqueue('late')).toThrow('closed');
  });

  it('refuses a non-positive concurrency', () => {
    expect(() => new Dispatcher({ maxConcurrent: 0, execute: async () => undefined, onError: () => undefined })).toThrow(RangeError);
  });
});
