// Faults on a real, separate PostgreSQL server this file stops and starts: while the database is
// down every operation fails fast with StorageUnavailableError (the edge's 503) and ready() answers
// false; once it is back the same storage serves again without a restart, its listening connection
// reconnects, and journal watchers catch up on commits they could not hear. No log line carries the
// password. A listening connection killed on its own is re-established too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock/index.js';
import { adminQuery, startEmbeddedPostgres, type EmbeddedPostgresServer } from '../../../../test/helpers/postgres.js';
import { StorageUnavailableError } from '../storage-unavailable.js';
import type { Storage } from '../storage.js';
import { createPostgresStorage, type PostgresStorageOptions } from './create-postgres-storage.js';

const PASSWORD = 'Outage-Secret-4711';
let server: EmbeddedPostgresServer;
const lines: string[] = [];
const log = {
  info: (o: object, m: string) => void lines.push(`${m} ${JSON.stringify(o)}`),
  warn: (o: object, m: string) => void lines.push(`${m} ${JSON.stringify(o)}`),
};

beforeAll(async () => {
  server = await startEmbeddedPostgres({ password: PASSWORD });
});
afterAll(async () => server.destroy());

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function options(schema: string): PostgresStorageOptions {
  return { clock: new ManualClock(), connectionString: server.url, schema, maxConnections: 4, log, connectTimeoutMs: 2_000 };
}

describe('the database going away', () => {
  const run = { collection: 'run', ownerId: 'alice', id: 'r1' };
  let storage: Storage;
  let peer: Storage;

  afterAll(async () => {
    await storage?.close();
    await peer?.close();
  });

  it('fails fast with StorageUnavailableError and is not ready while the database is down, then serves again without a restart', async () => {
    storage = await createPostgresStorage(options('outage'));
    peer = await createPostgresStorage(options('outage'));
    await storage.records.insert({ ...run, state: 'Running', createdAt: 1, data: { kept: true } });
    const heardSeqs: number[] = [];
    peer.journal.watch(run, (seq) => heardSeqs.push(seq));

    await server.stop();
    expect(await storage.ready()).toBe(false);
    const failure = await storage.records.get(run).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect((failure as Error).message).toBe('The storage is unavailable.');
    expect((failure as Error).cause).toBeDefined();
    await expect(storage.journal.commit(run, { events: ['lost'] })).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.rates.take('p', 'k', 5)).rejects.toBeInstanceOf(StorageUnavailableError);

    await server.start();
    await eventually(() => storage.ready());
    expect((await storage.records.get(run))?.data).toEqual({ kept: true });
    expect(await storage.journal.commit(run, { events: ['after'] })).toMatchObject({ committed: true, seqs: [1] });
    // The peer's listening connection comes back (it retries with backoff) and hears later commits.
    await eventually(() => heardSeqs.includes(1));
    const signals: string[] = [];
    peer.signals.subscribe('wake', (m) => signals.push(m));
    await eventually(async () => {
      await storage.signals.publish('wake', 'up');
      return signals.includes('up');
    });
    expect(lines.some((line) => line.startsWith('storage: the database is unreachable'))).toBe(true);
    expect(lines.some((line) => line.startsWith('storage: the database is reachable again'))).toBe(true);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('re-listens when its listening connection is killed, and tells watchers what was committed meanwhile', async () => {
    const heard: number[] = [];
    peer.journal.watch(run, (seq) => heard.push(seq));
    await storage.journal.commit(run, { events: ['x'] });
    await eventually(() => heard.includes(2));
    // Kill every listening connection of this schema's channel, then commit before they are back.
    await adminQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN \"outage\"'", [], server.url);
    await storage.journal.commit(run, { events: ['y'] });
    await eventually(() => heard.includes(3));
    expect(heard).toEqual([2, 3]);
    expect(lines.some((line) => line.startsWith('storage: the notification connection was lost'))).toBe(true);
  });

  it('cannot start while the database is down: StorageUnavailableError, without a hang', async () => {
    await server.stop();
    try {
      const started = Date.now();
      await expect(createPostgresStorage(options('outage'))).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await server.start();
    }
  });
});
