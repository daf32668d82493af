// Choosing and provisioning the configured provider; what start-up says when it cannot.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import type { StorageConfig } from '../config/types.js';
import { adminQuery, freshPostgres } from '../../../test/helpers/postgres.js';
import { freePort } from '../../../test/helpers/free-port.js';
import { StorageStartError, createStorage, migrateStorage } from './create-storage.js';
import { createPostgresStorage } from './postgres/create-postgres-storage.js';
import { LATEST_SCHEMA_VERSION } from './postgres/migrations/index.js';

const deps = { clock: new ManualClock(), log: { info: () => undefined, warn: () => undefined } };
const database = freshPostgres('create');
afterAll(async () => database.drop());

function config(overrides: Partial<StorageConfig['postgres']> = {}, provider: StorageConfig['provider'] = 'Postgres'): StorageConfig {
  return {
    provider,
    postgres: { connectionString: database.connectionString, schema: database.schema, maxConnections: 3, ...overrides },
    runLeaseTtlMs: 15_000,
  };
}

describe('createStorage', () => {
  it('builds the Memory provider by default and has nothing to migrate for it', async () => {
    const storage = await createStorage(config({}, 'Memory'), deps);
    expect([storage.provider, storage.durable]).toEqual(['Memory', false]);
    expect(await migrateStorage(config({}, 'Memory'), deps)).toBeNull();
  });

  it('connects to PostgreSQL and migrates the schema before handing the storage out', async () => {
    const storage = await createStorage(config(), deps);
    try {
      expect([storage.provider, storage.durable]).toEqual(['Postgres', true]);
      expect(await storage.ready()).toBe(true);
      expect(await adminQuery(`SELECT version FROM "${database.schema}".schema_migrations`)).toEqual(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
    } finally {
      await storage.close();
      await storage.close();
    }
    expect(await migrateStorage(config(), deps)).toEqual({ applied: [], version: LATEST_SCHEMA_VERSION });
  });

  it('refuses to start on an unreachable database with one line naming the key, never the password', async () => {
    const port = await freePort();
    const unreachable = `postgres://app:Never-Show-Me@127.0.0.1:${port}/portcullis`;
    for (const attempt of [createStorage(config({ connectionString: unreachable }), deps), migrateStorage(config({ connectionString: unreachable }), deps)]) {
      const error = await (attempt as Promise<unknown>).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StorageStartError);
      const message = (error as Error).message;
      expect(message).toMatch(new RegExp(`^AppConfig:Storage:Postgres:ConnectionString: cannot reach the database at postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/portcullis \\(.*ECONNREFUSED.*\\)$`));
      expect(message).not.toContain('Never-Show-Me');
      expect(message).not.toContain('\n');
    }
  });

  it('names the Schema key when a newer build migrated the schema', async () => {
    const fresh = freshPostgres('newer');
    try {
      await migrateStorage(config({ schema: fresh.schema }), deps);
      await adminQuery(`INSERT INTO "${fresh.schema}".schema_migrations VALUES (${LATEST_SCHEMA_VERSION + 1}, 'future', 0)`);
      await expect(createStorage(config({ schema: fresh.schema }), deps)).rejects.toThrow(
        new RegExp(`^AppConfig:Storage:Postgres:Schema: the schema "newer_[0-9a-f]+" was migrated by a newer version of Portcullis \\(schema version ${LATEST_SCHEMA_VERSION + 1}; this build knows up to ${LATEST_SCHEMA_VERSION}\\)`),
      );
    } finally {
      await fresh.drop();
    }
  });

  it('names the ConnectionString key when the database refuses the credentials', async () => {
    const url = new URL(database.connectionString);
    url.password = 'Wrong-Password-1';
    const error = await createStorage(config({ connectionString: url.toString() }), deps).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^AppConfig:Storage:Postgres:ConnectionString: cannot reach the database at .*password authentication failed/);
    expect(error?.message).not.toContain('Wrong-Password-1');
  });

  it('refuses a malformed URI handed straight to the provider without echoing it', async () => {
    const attempt = createPostgresStorage({ ...deps, connectionString: 'postgres://app:Secret-Xy-77@[oops/db', schema: 's', maxConnections: 1 });
    await expect(attempt).rejects.toThrow(new RangeError('the PostgreSQL connection string is not a valid libpq URI'));
  });
});
