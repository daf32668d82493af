import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { watchRunStates } from './watch-run-states.js';

const key = { collection: 'workflow-run', ownerId: 'sub:a', id: 'r1' };

describe('watchRunStates', () => {
  it('hears the final state a watched run is written in (update or journal commit), never reading it back', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const watch = watchRunStates(storage);
    await watch.storage.records.insert({ ...key, state: 'Queued', createdAt: 0, data: {} });
    watch.watch(key);
    await watch.storage.records.update(key, { state: 'Running' });
    expect(watch.take(key)).toBeUndefined();

    watch.watch(key);
    await watch.storage.journal.commit(key, { events: ['done'], record: { patch: { state: 'Succeeded' } } });
    expect(watch.take(key)).toBe('Succeeded');
    expect((await storage.records.get(key))?.state).toBe('Succeeded');
  });

  it('ignores refused writes and keys nobody watches, and passes every other call through', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const watch = watchRunStates(storage);
    await watch.storage.records.insert({ ...key, state: 'Running', createdAt: 0, data: {} });
    await watch.storage.records.update(key, { state: 'Failed' });
    watch.watch(key);
    await watch.storage.records.update(key, { state: 'Cancelled' }, { states: ['Running'] });
    expect(watch.take(key)).toBeUndefined();
    expect(watch.storage.provider).toBe('Memory');
    await expect(watch.storage.ready()).resolves.toBe(true);
  });

  it('binds each storage method once, and a method replaced on the storage anew', async () => {
    const storage = createMemoryStorage({ clock: new ManualClock() });
    const watch = watchRunStates(storage);
    const records = watch.storage.records;
    // Read twice through the proxy: the same bound function both times.
    expect(Reflect.get(records, 'get')).toBe(Reflect.get(records, 'get'));
    const calls: unknown[] = [];
    const original = storage.records.get.bind(storage.records);
    storage.records.get = ((k: typeof key) => {
      calls.push(k);
      return original(k);
    });
    await watch.storage.records.get(key);
    expect(calls).toEqual([key]);
  });
});
