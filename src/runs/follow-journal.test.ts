import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage, StorageUnavailableError } from '../platform/storage/index.js';
import { followJournal } from './follow-journal.js';

describe('followJournal', () => {
  it('yields every event after the given sequence, then each new one as it is committed, until aborted', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const run = { collection: 'run', ownerId: 'alice', id: 'r' };
    await storage.records.insert({ ...run, createdAt: clock.now(), data: {} });
    await storage.journal.commit(run, { events: ['a', 'b', 'c'] });
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const { event } of followJournal<string>(storage.journal, run, 1, controller.signal)) {
        seen.push(event);
        if (event === 'e') controller.abort();
      }
    })();
    await storage.journal.commit(run, { events: ['d'] });
    await storage.journal.commit(run, { events: ['e'] });
    await following;
    expect(seen).toEqual(['b', 'c', 'd', 'e']);
  });
});

describe('followJournal through a storage outage', () => {
  it('waits while the storage is unreachable and resumes where it was, telling the outage log once each way', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const run = { collection: 'run', ownerId: 'alice', id: 'r' };
    await storage.records.insert({ ...run, createdAt: clock.now(), data: {} });
    await storage.journal.commit(run, { events: ['a'] });
    let down = false;
    const events = storage.journal.events.bind(storage.journal);
    const journal = { ...storage.journal, watch: storage.journal.watch.bind(storage.journal), events: <E>(...args: Parameters<typeof events>) => (down ? Promise.reject(new StorageUnavailableError()) : events<E>(...args)) };
    const heard: string[] = [];
    const outage = { failed: () => void heard.push('failed'), succeeded: () => void heard.push('ok') };
    const controller = new AbortController();
    const seen: string[] = [];
    down = true;
    const following = (async () => {
      for await (const { event } of followJournal<string>(journal, run, 0, controller.signal, { outage })) {
        seen.push(event);
        if (event === 'b') controller.abort();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(seen).toEqual([]);
    down = false;
    await storage.journal.commit(run, { events: ['b'] });
    await following;
    expect(seen).toEqual(['a', 'b']);
    expect(heard.filter((h) => h === 'failed').length).toBeGreaterThanOrEqual(1);
    expect(heard.at(-1)).toBe('ok');
  });

  it('yields what is committed and ends once `finish` aborts', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const run = { collection: 'run', ownerId: 'alice', id: 'r' };
    await storage.records.insert({ ...run, createdAt: clock.now(), data: {} });
    const finish = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const { event } of followJournal<string>(storage.journal, run, 0, new AbortController().signal, { finish: finish.signal })) seen.push(event);
    })();
    await storage.journal.commit(run, { events: ['a', 'b'] });
    finish.abort();
    await following;
    expect(seen).toEqual(['a', 'b']);
  });
});
