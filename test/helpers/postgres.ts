// Test access to the run's PostgreSQL server (started by postgres-global-setup.ts): a fresh schema
// per caller, so test files never share state, and admin queries for setting up faults.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export { startEmbeddedPostgres, type EmbeddedPostgresServer } from './embedded-postgres-server.js';

export interface FreshPostgres {
  /** The server's URL (superuser on the `postgres` database). */
  readonly connectionString: string;
  /** A schema name no one else uses; it does not exist until a migration creates it. */
  readonly schema: string;
  /** Empties every table of the schema (between tests of one file). */
  truncate(): Promise<void>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

export function postgresUrl(): string {
  return inject('postgresUrl');
}

/** Runs statements on their own connection to `url` (default: the run's server). */
export async function adminQuery<R extends object = Record<string, unknown>>(sql: string, values: unknown[] = [], url = postgresUrl()): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export function freshPostgres(prefix = 't'): FreshPostgres {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const id = pg.escapeIdentifier(schema);
  return {
    connectionString: postgresUrl(),
    schema,
    truncate: async () => {
      await adminQuery(`TRUNCATE ${id}.records, ${id}.run_items, ${id}.run_events, ${id}.rate_windows, ${id}.slots, ${id}.blobs, ${id}.journal_watchers`);
    },
    drop: async () => {
      await adminQuery(`DROP SCHEMA IF EXISTS ${id} CASCADE`);
    },
  };
}
