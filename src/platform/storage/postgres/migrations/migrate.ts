// Applies the embedded schema migrations to the configured schema, at start-up and from
// `portcullis migrate`. Under an advisory lock held for one transaction: several instances starting
// together queue, the first applies what is missing, the others find nothing left to do. Applied
// versions are recorded in <schema>.schema_migrations; a recorded version this build does not know
// means a newer build migrated the database, and this one refuses to touch it.
import type pg from 'pg';
import type { Clock } from '../../../clock/index.js';
import { LATEST_SCHEMA_VERSION, migrations as knownMigrations, type Migration } from './index.js';
import { schemaNames } from '../schema-names.js';

export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  readonly code = 'schema-too-new';
  readonly schema: string;
  readonly recordedVersion: number;
  readonly knownVersion: number;

  constructor(schema: string, recordedVersion: number, knownVersion: number) {
    super(
      `the schema "${schema}" was migrated by a newer version of Portcullis (schema version ${recordedVersion}; ` +
        `this build knows up to ${knownVersion}); run that version, or point this one at another schema`,
    );
    this.schema = schema;
    this.recordedVersion = recordedVersion;
    this.knownVersion = knownVersion;
  }
}

export interface MigrationOutcome {
  /** Versions this call applied, ascending (empty when the schema was up to date). */
  readonly applied: readonly number[];
  /** The schema's version afterwards. */
  readonly version: number;
}

/**
 * Brings `schema` up to this build's version on an open connection (one transaction). Throws
 * SchemaTooNewError, or the driver's error when the database fails.
 */
export async function migrateSchema(
  client: pg.ClientBase,
  options: { readonly schema: string; readonly clock: Clock; readonly migrations?: readonly Migration[] },
): Promise<MigrationOutcome> {
  const migrations = [...(options.migrations ?? knownMigrations)].sort((a, b) => a.version - b.version);
  const latest = options.migrations === undefined ? LATEST_SCHEMA_VERSION : Math.max(0, ...migrations.map((m) => m.version));
  const names = schemaNames(options.schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`portcullis/migrate/${options.schema}`]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${names.id}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${names.id}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`,
    );
    const recorded = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${names.id}.schema_migrations`)).rows.map((row) => Number(row.version)),
    );
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...recorded].filter((version) => !known.has(version));
    if (unknown.length > 0) throw new SchemaTooNewError(options.schema, Math.max(...unknown), latest);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (recorded.has(migration.version)) continue;
      await client.query(migration.sql(names));
      await client.query(`INSERT INTO ${names.id}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        options.clock.now(),
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { applied, version: Math.max(0, ...recorded, ...applied) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
