import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

const never = new AbortController().signal;

describe('KeyedLock', () => {
  it('lets holders of one key in one at a time, in arrival order, and other keys in at once', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const first = await lock.acquire('k', never);
    const second = lock.acquire('k', never).then((unlock) => (order.push('second'), unlock));
    const third = lock.acquire('k', never).then((unlock) => (order.push('third'), unlock));
    const other = await lock.acquire('other', never);
    order.push('other');
    first();
    (await second)();
    (await third)();
    other();
    expect(order).toEqual(['other', 'second', 'third']);
  });

  it('lets a waiter that gives up leave the queue without ever holding the lock', async () => {
    const lock = new KeyedLock();
    const first = await lock.acquire('k', never);
    const quitter = new AbortController();
    const abandoned = lock.acquire('k', quitter.signal);
    const patient = lock.acquire('k', never);
    quitter.abort(new Error('cancelled'));
    await expect(abandoned).rejects.toThrow('cancelled');
    first();
    const unlock = await patient;
    unlock();
    unlock(); // idempotent
    await new Promise((resolve) => setImmediate(resolve));
    expect(lock.size).toBe(0);
  });

  it('refuses at once when the signal already aborted', async () => {
    const lock = new KeyedLock();
    const controller = new AbortController();
    controller.abort();
    await expect(lock.acquire('k', controller.signal)).rejects.toBeDefined();
  });
});
