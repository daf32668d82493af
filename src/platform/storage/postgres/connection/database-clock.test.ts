// Two instances whose host clocks are 30 s apart judge leases and TTLs by one clock, the database's:
// the skewed instance neither sees a live lease as lapsed nor a live record as expired.
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../../../../../test/helpers/postgres.js';
import type { Clock } from '../../../clock/index.js';
import { createPostgresStorage } from '../create-postgres-storage.js';

const database = freshPostgres('clock');
const silent = { info: () => undefined, warn: () => undefined };
afterAll(async () => database.drop());

const skewed = (offsetMs: number): Clock => ({ now: () => Date.now() + offsetMs });

describe('the database clock', () => {
  it('gives instances whose host clocks differ by 30 s one time, so one instance’s live lease and record are live for the other', async () => {
    const options = { connectionString: database.connectionString, schema: database.schema, maxConnections: 2, log: silent };
    const behind = await createPostgresStorage({ ...options, clock: skewed(0) });
    const ahead = await createPostgresStorage({ ...options, clock: skewed(30_000) });
    try {
      expect(Math.abs(ahead.clock.now() - behind.clock.now())).toBeLessThan(1_000);
      const run = { collection: 'run', ownerId: 'alice', id: 'r1' };
      const now = behind.clock.now();
      await behind.records.insert({ ...run, state: 'Running', createdAt: now, expiresAt: now + 20_000, lease: { holder: 'behind', expiresAt: now + 15_000 }, data: {} });
      // 30 s ahead on its own clock, the other instance would see both lapsed; on the database's, neither.
      expect(await ahead.records.lapsed(['run'], ['Running'], 10)).toEqual([]);
      expect(await ahead.records.claim(run, 'ahead', 15_000, { states: ['Running'], lapsedOnly: true })).toBeUndefined();
      expect((await ahead.records.get(run))?.leaseHolder).toBe('behind');
      expect(await ahead.records.renewLeases('ahead', 15_000)).toEqual([]);
    } finally {
      await Promise.all([behind.close(), ahead.close()]);
    }
  });
});
