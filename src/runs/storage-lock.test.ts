import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage } from '../platform/storage/index.js';
import { StorageLock } from './storage-lock.js';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('StorageLock', () => {
  it('lets one holder in at a time, across instances, and the next in as soon as it unlocks', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const a = new StorageLock({ storage, kind: 'conversation', holder: 'a', ttlMs: 60_000 });
    const b = new StorageLock({ storage, kind: 'conversation', holder: 'b', ttlMs: 60_000 });
    const unlockA = await a.acquire('k', new AbortController().signal);
    let bHolds = false;
    const pending = b.acquire('k', new AbortController().signal).then((unlock) => {
      bHolds = true;
      return unlock;
    });
    await settle();
    expect(bHolds).toBe(false);
    unlockA();
    const unlockB = await pending;
    expect(bHolds).toBe(true);
    unlockB();
    expect(await storage.slots.held('conversation', 'k')).toBe(0);
  });

  it('an unlock whose release the storage refuses (closed under it) is not an unhandled rejection', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const lock = new StorageLock({ storage, kind: 'c', holder: 'a', ttlMs: 60_000 });
    const unlock = await lock.acquire('k', new AbortController().signal);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      storage.slots.release = () => Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
      unlock();
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('does not serialise different keys', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const lock = new StorageLock({ storage, kind: 'c', holder: 'a', ttlMs: 60_000 });
    const one = await lock.acquire('x', new AbortController().signal);
    const two = await lock.acquire('y', new AbortController().signal);
    one();
    two();
  });

  it('gives up a wait that is cancelled without ever holding the lock', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const lock = new StorageLock({ storage, kind: 'c', holder: 'a', ttlMs: 60_000 });
    const held = await lock.acquire('k', new AbortController().signal);
    const controller = new AbortController();
    const waiting = lock.acquire('k', controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    await settle();
    expect(await storage.slots.held('c', 'k')).toBe(0);
  });

  it('takes a lock whose holder stopped renewing it once its slot lapsed', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    await storage.slots.acquire('c', 'k', 1, 'dead', 100);
    const lock = new StorageLock({ storage, kind: 'c', holder: 'a', ttlMs: 100 });
    const pending = lock.acquire('k', new AbortController().signal);
    clock.advance(100);
    const unlock = await pending;
    unlock();
  });
});
