// Faults on a real, separate PostgreSQL server this file stops and starts: while the database is
// down every operation fails fast with StorageUnavailableError (the edge's 503) and ready() answers
// false; once it is back the same storage serves again without a restart, its listening connection
// reconnects, and journal watchers catch up on commits they could not hear. No log line carries the
// password. A listening connection killed on its own is re-established too. While the database is
// frozen (it accepts connections but answers nothing), every use gives up within its bounds
// (decision 3511) and the connections it left hanging are dropped, not reused.
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

/** The promise's outcome, or 'no answer' once `ms` have passed (so a hang fails an assertion, not the run). */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'no answer'>((resolve) => (timer = setTimeout(() => resolve('no answer'), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
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

describe('the database frozen (SIGSTOP: connections hang instead of failing)', () => {
  const run = { collection: 'run', ownerId: 'alice', id: 'frozen' };
  const BOUND_MS = 1_000;

  it('gives up on every use within its bounds with StorageUnavailableError, drops the hanging connections, and serves again once it answers', async () => {
    const frozen = await createPostgresStorage({ ...options('frozen'), maxConnections: 2, connectTimeoutMs: BOUND_MS, statementTimeoutMs: BOUND_MS });
    try {
      await frozen.records.insert({ ...run, state: 'Running', createdAt: 1, data: { kept: true } });
      await Promise.all([frozen.records.get(run), frozen.records.get(run)]); // two pooled connections, both idle
      await server.freeze();
      try {
        // Twice as many uses as connections, twice over: those on a pooled connection wait for an
        // answer, the others for a connection. Each must give up (acquire + statement bound, and a
        // margin for a busy machine), the second round on connections that replaced the first's.
        for (const round of [1, 2]) {
          const outcomes = await within(
            15_000,
            Promise.all([1, 2, 3, 4].map(() => frozen.records.get(run).then(() => 'answered', (error: unknown) => error))),
          );
          expect(outcomes, `round ${round}`).not.toBe('no answer');
          for (const outcome of outcomes as unknown[]) expect(outcome, `round ${round}`).toBeInstanceOf(StorageUnavailableError);
        }
        await expect(within(15_000, frozen.journal.commit(run, { events: ['lost?'] }))).rejects.toBeInstanceOf(StorageUnavailableError);
        expect(await within(15_000, frozen.ready())).toBe(false);
      } finally {
        await server.thaw();
      }
      await eventually(() => frozen.ready());
      expect((await frozen.records.get(run))?.data).toEqual({ kept: true });
      expect(lines.join('\n')).not.toContain(PASSWORD);
    } finally {
      await server.thaw();
      await frozen.close();
    }
  }, 60_000);

  it('lets a run checkpoint that waits it out (waitOut) finish once the database answers, its events written once', async () => {
    const frozen = await createPostgresStorage({ ...options('frozen_wait'), maxConnections: 2, connectTimeoutMs: BOUND_MS, statementTimeoutMs: BOUND_MS });
    const checkpoint = { ...run, id: 'checkpoint' };
    try {
      await frozen.records.insert({ ...checkpoint, state: 'Running', createdAt: 1, data: {} });
      await frozen.records.get(checkpoint); // a pooled connection, idle
      await server.freeze();
      let committing: Promise<unknown>;
      try {
        committing = frozen.journal.commit(checkpoint, { events: ['once'] }, { waitOut: true });
        // Three statement bounds pass with the checkpoint still waiting (a bounded one gave up after one).
        expect(await within(3 * BOUND_MS, committing)).toBe('no answer');
      } finally {
        await server.thaw();
      }
      expect(await within(15_000, committing)).toMatchObject({ committed: true, seqs: [1] });
      expect((await frozen.journal.events(checkpoint, 0, 10)).map((event) => event.event)).toEqual(['once']);
    } finally {
      await server.thaw();
      await frozen.close();
    }
  }, 60_000);
});
