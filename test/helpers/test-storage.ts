// The storage the integration tests run on: Memory by default, or a real PostgreSQL (a schema of its
// own on the run's embedded server) when PORTCULLIS_TEST_STORAGE=Postgres — the second vitest project
// runs the whole HTTP integration suite that way, so both providers answer the same tests.
import { systemClock, type Clock } from '../../src/platform/clock/index.js';
import { createMemoryStorage, type Storage } from '../../src/platform/storage/index.js';
import { createPostgresStorage } from '../../src/platform/storage/postgres/create-postgres-storage.js';
import { freshPostgres } from './postgres.js';
import { keptBlobs } from './kept-blobs.js';

export const TEST_STORAGE: 'Memory' | 'Postgres' = process.env.PORTCULLIS_TEST_STORAGE === 'Postgres' ? 'Postgres' : 'Memory';

const silent = { info: () => undefined, warn: () => undefined };

export interface TestStorage {
  readonly storage: Storage;
  /** Closes the storage (and drops its schema). */
  dispose(): Promise<void>;
}

/** A fresh storage of the suite's provider. */
export async function openTestStorage(clock: Clock = systemClock): Promise<TestStorage> {
  if (TEST_STORAGE === 'Memory') {
    const storage = createMemoryStorage({ clock });
    return { storage, dispose: () => storage.close() };
  }
  const database = freshPostgres('it');
  // A test that drives time with its own clock makes that clock the database's; otherwise the
  // database's own clock judges, as in production.
  const clockSource = clock === systemClock ? 'database' : 'injected';
  const storage = await createPostgresStorage({ clock, clockSource, connectionString: database.connectionString, schema: database.schema, maxConnections: 4, log: silent });
  return {
    storage,
    dispose: async () => {
      await storage.close();
      await database.drop();
    },
  };
}

/**
 * A storage several apps share as instances of one deployment: PostgreSQL as it is, or a Memory
 * storage that calls itself durable and keeps blobs (so the apps behave as they would on a shared database).
 */
export async function openSharedTestStorage(clock: Clock = systemClock): Promise<TestStorage> {
  const opened = await openTestStorage(clock);
  return TEST_STORAGE === 'Memory' ? { storage: { ...opened.storage, durable: true, blobs: keptBlobs() }, dispose: () => opened.dispose() } : opened;
}
