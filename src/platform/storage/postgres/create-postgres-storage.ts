// The Postgres provider (DESIGN.md §11): PostgreSQL through node-postgres is the system of record
// shared by every instance on the same database and schema. createPostgresStorage applies the schema
// migrations (under an advisory lock) and opens the listening connection before it returns, so a
// storage it hands out is ready to serve; an unreachable database is StorageUnavailableError, a schema
// migrated by a newer build SchemaTooNewError. migratePostgres only migrates (`portcullis migrate`).
import type { Clock } from '../../clock/index.js';
import type { Storage } from '../storage.js';
import { migrateSchema, type MigrationOutcome } from './migrations/migrate.js';
import { PgBlobStore } from './stores/pg-blob-store.js';
import { PgDatabase, type PostgresLog } from './connection/pg-database.js';
import { PgNotificationHub } from './connection/pg-notification-hub.js';
import { PgRateWindows } from './stores/pg-rate-windows.js';
import { PgSpendCounters } from './stores/pg-spend-counters.js';
import { PgRecordStore } from './stores/pg-record-store.js';
import { PgRunJournal } from './stores/pg-run-journal.js';
import { PgSignalBus } from './stores/pg-signal-bus.js';
import { PgSlotStore } from './stores/pg-slot-store.js';
import { schemaNames } from './schema-names.js';
import { toStorageError } from './connection/unavailable.js';
import { DatabaseClock } from './connection/database-clock.js';
import { withStorableKeys } from '../with-storable-keys.js';

export interface PostgresStorageOptions {
  readonly clock: Clock;
  /**
   * Whose time judges leases and TTLs: the database server's (default: `clock` corrected by the
   * measured offset, so instances with skewed clocks agree) or `clock` itself (tests that drive time
   * with a manual clock).
   */
  readonly clockSource?: 'database' | 'injected';
  /** A libpq URI; a secret. */
  readonly connectionString: string;
  readonly schema: string;
  /** Pool size; the listening connection comes on top. */
  readonly maxConnections: number;
  readonly log: PostgresLog;
  /** How long to wait for a connection before the database counts as unreachable; default 5 s. */
  readonly connectTimeoutMs?: number;
  /** How long a statement may go unanswered before the database counts as unreachable; default 5 s (decision 3511). */
  readonly statementTimeoutMs?: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export async function createPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const names = schemaNames(checkedSchema(options.schema));
  const db = new PgDatabase(options);
  const hub = new PgNotificationHub(db, names, options.log);
  const databaseClock = options.clockSource === 'injected' ? null : new DatabaseClock(options.clock, db);
  const clock = databaseClock ?? options.clock;
  try {
    await databaseClock?.sync();
    await db.withClient((client) => migrateSchema(client, { schema: options.schema, clock }));
    await hub.start();
  } catch (error) {
    await db.close().catch(() => undefined);
    throw toStorageError(error);
  }
  databaseClock?.start();
  const rates = new PgRateWindows(db, names, clock, options.log);
  const journal = new PgRunJournal(db, hub, names, clock);
  let closing: Promise<void> | undefined;
  // PostgreSQL text cannot hold U+0000: such an id is refused before any statement (with-storable-keys.ts).
  return withStorableKeys({
    provider: 'Postgres',
    durable: true,
    clock,
    records: new PgRecordStore(db, names, clock),
    journal,
    signals: new PgSignalBus(db, hub, names),
    rates,
    slots: new PgSlotStore(db, names, clock),
    spend: new PgSpendCounters(db, names, clock, options.log),
    blobs: new PgBlobStore(db, names),
    ready: () => db.query('SELECT 1', [], 'portcullis_ready').then(
      () => true,
      () => false,
    ),
    close: () =>
      (closing ??= (async () => {
        databaseClock?.stop();
        journal.close();
        await rates.close();
        await hub.close();
        await db.close();
      })()),
  });
}

/** Applies the migrations this build knows to the schema and returns what it did. */
export async function migratePostgres(options: Omit<PostgresStorageOptions, 'maxConnections'>): Promise<MigrationOutcome> {
  checkedSchema(options.schema);
  const db = new PgDatabase({ ...options, maxConnections: 1 });
  try {
    return await db.withClient((client) => migrateSchema(client, { schema: options.schema, clock: options.clock }));
  } finally {
    await db.close().catch(() => undefined);
  }
}

function checkedSchema(schema: string): string {
  if (!IDENTIFIER.test(schema) || /^pg_/i.test(schema)) throw new RangeError(`not a usable schema name: ${JSON.stringify(schema)}`);
  return schema;
}
