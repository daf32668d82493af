// Schema migrations on a real PostgreSQL: a fresh schema gets every table, a re-run is a no-op,
// instances migrating at the same moment all succeed (one applies, the advisory lock queues the
// rest), and a schema a newer build migrated is refused before anything touches it.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock/index.js';
import { adminQuery, freshPostgres } from '../../../../../test/helpers/postgres.js';
import { createPostgresStorage, migratePostgres } from '../create-postgres-storage.js';
import { SchemaTooNewError, migrateSchema } from './migrate.js';
import { LATEST_SCHEMA_VERSION } from './index.js';

const silent = { info: () => undefined, warn: () => undefined };
const created: ReturnType<typeof freshPostgres>[] = [];

function database() {
  const fresh = freshPostgres('migrate');
  created.push(fresh);
  return { fresh, options: { clock: new ManualClock(), connectionString: fresh.connectionString, schema: fresh.schema, log: silent } };
}

afterAll(async () => {
  for (const fresh of created) await fresh.drop();
});

describe('schema migrations', () => {
  it('creates the schema and its tables on a fresh database, records the version, and does nothing the second time', async () => {
    const { fresh, options } = database();
    expect(await migratePostgres(options)).toEqual({ applied: [1, 2, 3, 4, 5, 6, 7, 8], version: LATEST_SCHEMA_VERSION });
    const tables = await adminQuery<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [fresh.schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['blobs', 'journal_watchers', 'rate_windows', 'records', 'run_events', 'run_items', 'schema_migrations', 'slots', 'spend']);
    const recorded = await adminQuery<{ version: number; applied_at: string }>(`SELECT version, applied_at FROM "${fresh.schema}".schema_migrations`);
    expect(recorded).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((version) => ({ version, applied_at: String(options.clock.now()) })));
    expect(await migratePostgres(options)).toEqual({ applied: [], version: LATEST_SCHEMA_VERSION });
  });

  it('lets several instances migrate one fresh schema at once: all succeed and the migration is applied once', async () => {
    const { fresh, options } = database();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => migratePostgres(options)));
    expect(outcomes.filter((o) => o.applied.length > 0)).toHaveLength(1);
    expect(outcomes.every((o) => o.version === LATEST_SCHEMA_VERSION)).toBe(true);
    const starts = await Promise.all(Array.from({ length: 3 }, () => createPostgresStorage({ ...options, maxConnections: 2 })));
    await Promise.all(starts.map((storage) => storage.close()));
    expect(await adminQuery(`SELECT version FROM "${fresh.schema}".schema_migrations`)).toHaveLength(LATEST_SCHEMA_VERSION);
  });

  it('refuses a schema migrated by a newer version, naming both versions, and changes nothing', async () => {
    const { fresh, options } = database();
    await migratePostgres(options);
    await adminQuery(`INSERT INTO "${fresh.schema}".schema_migrations (version, name, applied_at) VALUES (999, 'from the future', 0)`);
    const refusal = migratePostgres(options);
    await expect(refusal).rejects.toBeInstanceOf(SchemaTooNewError);
    await expect(refusal).rejects.toThrow(`the schema "${fresh.schema}" was migrated by a newer version of Portcullis (schema version 999; this build knows up to ${LATEST_SCHEMA_VERSION})`);
    await expect(createPostgresStorage({ ...options, maxConnections: 2 })).rejects.toBeInstanceOf(SchemaTooNewError);
  });

  it('applies nothing when one migration of a batch fails: the batch is one transaction', async () => {
    const { fresh, options } = database();
    const broken = [
      { version: 1, name: 'one', sql: () => `CREATE TABLE "${fresh.schema}".one (x int)` },
      { version: 2, name: 'two', sql: () => 'SELECT * FROM no_such_table' },
    ];
    const client = new pg.Client({ connectionString: fresh.connectionString });
    await client.connect();
    try {
      await expect(migrateSchema(client, { schema: fresh.schema, clock: options.clock, migrations: broken })).rejects.toThrow(/no_such_table/);
    } finally {
      await client.end();
    }
    expect(await adminQuery('SELECT 1 FROM pg_namespace WHERE nspname = $1', [fresh.schema])).toEqual([]);
  });

  it('refuses a schema name PostgreSQL would not take as written', async () => {
    const { options } = database();
    await expect(migratePostgres({ ...options, schema: 'pg_catalog' })).rejects.toBeInstanceOf(RangeError);
    await expect(migratePostgres({ ...options, schema: 'a"; DROP SCHEMA public; --' })).rejects.toBeInstanceOf(RangeError);
  });
});
