import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage } from '../platform/storage/index.js';
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
