// Journal notifications on a real PostgreSQL go only where they are wanted (decision 2808): a commit
// sends a NOTIFY only while another instance watches the run — none for a run nobody follows, none
// for a watcher on the writing instance itself (it is told in process) — and a watcher hears commits
// made before its watch was in place once it is. Two storages on one schema are two instances; a
// plain LISTEN on the deployment's channel counts what the database sends.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../clock/index.js';
import { adminQuery, freshPostgres } from '../../../../../test/helpers/postgres.js';
import { eventually } from '../../../../../test/helpers/eventually.js';
import type { Storage } from '../../storage.js';
import { createPostgresStorage } from '../create-postgres-storage.js';
import { schemaNames } from '../schema-names.js';
import { WATCH_RENEW_MS } from './pg-run-journal.js';

const database = freshPostgres('journal_notify');
const silent = { info: () => undefined, warn: () => undefined };
const clock = new ManualClock();
let writer: Storage;
let follower: Storage;
let listener: pg.Client;
const payloads: string[] = [];

const run = (id: string) => ({ collection: 'job', ownerId: 'alice', id });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function watchers(): Promise<number> {
  return (await adminQuery<{ n: number }>(`SELECT count(*)::int AS n FROM "${database.schema}".journal_watchers`))[0]!.n;
}

beforeAll(async () => {
  const options = { clock, clockSource: 'injected' as const, connectionString: database.connectionString, schema: database.schema, maxConnections: 4, log: silent };
  writer = await createPostgresStorage(options);
  follower = await createPostgresStorage(options);
  listener = new pg.Client({ connectionString: database.connectionString });
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.payload?.startsWith('j ') === true) payloads.push(message.payload);
  });
  await listener.query(`LISTEN ${schemaNames(database.schema).channelId}`);
});
afterAll(async () => {
  await listener.end();
  await writer.close();
  await follower.close();
  await database.drop();
});

describe('PgRunJournal notifications', () => {
  it('sends none for a run nobody watches, nor for a watcher on the writing instance', async () => {
    await writer.records.insert({ ...run('quiet'), state: 'Running', createdAt: clock.now(), data: {} });
    payloads.length = 0;
    await writer.journal.commit(run('quiet'), { events: ['a'] });
    const local: number[] = [];
    const stop = writer.journal.watch(run('quiet'), (seq) => local.push(seq));
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    await writer.journal.commit(run('quiet'), { events: ['b'] });
    await settle();
    expect(payloads).toEqual([]);
    // The local watcher was told in process (and once, after its watch was written, of what came before).
    expect(local).toContain(2);
    stop();
    await eventually(async () => ((await watchers()) === 0 ? true : undefined));
  });

  it('notifies while another instance watches the run, and stops once its watch ends', async () => {
    await writer.records.insert({ ...run('followed'), state: 'Running', createdAt: clock.now(), data: {} });
    const heard: number[] = [];
    const stop = follower.journal.watch(run('followed'), (seq) => heard.push(seq));
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    payloads.length = 0;
    await writer.journal.commit(run('followed'), { events: ['a', 'b'] });
    await eventually(async () => (heard.includes(2) ? true : undefined));
    // The test's own LISTEN connection hears it too, in its own time.
    await eventually(async () => (payloads.length > 0 ? true : undefined));
    await settle();
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatch(/ 2$/);
    stop();
    await eventually(async () => ((await watchers()) === 0 ? true : undefined));
    payloads.length = 0;
    await writer.journal.commit(run('followed'), { events: ['c'] });
    await settle();
    expect(payloads).toEqual([]);
    expect(heard).not.toContain(3);
  });

  it('tells a watcher of commits made before its watch was in place', async () => {
    await writer.records.insert({ ...run('early'), state: 'Running', createdAt: clock.now(), data: {} });
    const heard: number[] = [];
    const stop = follower.journal.watch(run('early'), (seq) => heard.push(seq));
    // Committed at once, likely before the watch was written: no notification can carry it.
    await writer.journal.commit(run('early'), { events: ['a'] });
    await eventually(async () => (heard.includes(1) ? true : undefined));
    stop();
  });

  it('keeps one registration for several watchers of a run on an instance, until the last ends', async () => {
    await writer.records.insert({ ...run('shared'), state: 'Running', createdAt: clock.now(), data: {} });
    const first = follower.journal.watch(run('shared'), () => undefined);
    const second = follower.journal.watch(run('shared'), () => undefined);
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    first();
    first(); // ending a watch twice ends it once
    await settle();
    expect(await watchers()).toBe(1);
    second();
    await eventually(async () => ((await watchers()) === 0 ? true : undefined));
  });

  it('ignores a watch that lapsed (its instance stopped renewing it)', async () => {
    await writer.records.insert({ ...run('lapsed'), state: 'Running', createdAt: clock.now(), data: {} });
    const stop = follower.journal.watch(run('lapsed'), () => undefined);
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    clock.advance(31_000);
    payloads.length = 0;
    await writer.journal.commit(run('lapsed'), { events: ['a'] });
    await settle();
    expect(payloads).toEqual([]);
    stop();
  });

  it('writes its watches again after the notification connection came back (a database restart empties the table)', async () => {
    await writer.records.insert({ ...run('reconnect'), state: 'Running', createdAt: clock.now(), data: {} });
    const heard: number[] = [];
    const stop = follower.journal.watch(run('reconnect'), (seq) => heard.push(seq));
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    await adminQuery(`TRUNCATE "${database.schema}".journal_watchers`);
    // Every instance's LISTEN connection dropped, as at a restart; the test's own stays.
    const own = (await listener.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> $1`, [own]);
    await eventually(async () => ((await watchers()) === 1 ? true : undefined));
    await writer.journal.commit(run('reconnect'), { events: ['a'] });
    await eventually(async () => (heard.includes(1) ? true : undefined));
    stop();
  });

  it('renews its watches every WATCH_RENEW_MS, so a watch that lapsed while the instance lives is written again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const options = { clock, clockSource: 'injected' as const, connectionString: database.connectionString, schema: database.schema, maxConnections: 4, log: silent };
    // Only setInterval is faked (the renewal's timer); everything else runs on real time.
    const renewing = await createPostgresStorage(options);
    try {
      await writer.records.insert({ ...run('renewed'), state: 'Running', createdAt: clock.now(), data: {} });
      const stop = renewing.journal.watch(run('renewed'), () => undefined);
      await eventually(async () => ((await watchers()) === 1 ? true : undefined));
      clock.advance(31_000);
      payloads.length = 0;
      await writer.journal.commit(run('renewed'), { events: ['a'] });
      await settle();
      expect(payloads).toEqual([]);
      vi.advanceTimersByTime(WATCH_RENEW_MS);
      await eventually(async () => ((await adminQuery<{ n: number }>(`SELECT count(*)::int AS n FROM "${database.schema}".journal_watchers WHERE expires_at > $1`, [clock.now()]))[0]!.n === 1 ? true : undefined));
      await writer.journal.commit(run('renewed'), { events: ['b'] });
      await eventually(async () => (payloads.length > 0 ? true : undefined));
      stop();
    } finally {
      vi.useRealTimers();
      await renewing.close();
    }
  });
});
