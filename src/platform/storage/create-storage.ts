// Provisions the configured storage provider (AppConfig:Storage) at start-up: Memory at once;
// Postgres by connecting, migrating the schema and listening. What stops start-up is a
// StorageStartError whose one-line message names the key to fix and never the password: an
// unreachable database names AppConfig:Storage:Postgres:ConnectionString, a schema a newer build
// migrated names AppConfig:Storage:Postgres:Schema. migrateStorage is `portcullis migrate`'s half.
// The Postgres provider (and `pg` with it, about 10 MB of RSS) is imported only when configured.
import type { Clock } from '../clock/index.js';
import type { StorageConfig } from '../config/types.js';
import { describeConnectionTarget } from './postgres/connection/connection-string.js';
import type { MigrationOutcome } from './postgres/migrations/migrate.js';
import type { PostgresLog } from './postgres/connection/pg-database.js';
import { describeFailure, isUnavailableCause } from './postgres/connection/unavailable.js';
import { createMemoryStorage } from './memory/create-memory-storage.js';
import type { Storage } from './storage.js';

export const CONNECTION_STRING_KEY = 'AppConfig:Storage:Postgres:ConnectionString';
export const SCHEMA_KEY = 'AppConfig:Storage:Postgres:Schema';

export class StorageStartError extends Error {
  override readonly name = 'StorageStartError';
  readonly code = 'storage-start';
}

export interface StorageDeps {
  readonly clock: Clock;
  readonly log: PostgresLog;
}

export async function createStorage(config: StorageConfig, deps: StorageDeps): Promise<Storage> {
  if (config.provider === 'Memory') return createMemoryStorage({ clock: deps.clock });
  const connectionString = requiredConnectionString(config);
  const { createPostgresStorage } = await import('./postgres/create-postgres-storage.js');
  try {
    return await createPostgresStorage({
      clock: deps.clock,
      connectionString,
      schema: config.postgres.schema,
      maxConnections: config.postgres.maxConnections,
      log: deps.log,
    });
  } catch (error) {
    throw await startError(error, config, connectionString);
  }
}

/** Applies the schema migrations; null with the Memory provider (nothing to migrate). */
export async function migrateStorage(config: StorageConfig, deps: StorageDeps): Promise<MigrationOutcome | null> {
  if (config.provider === 'Memory') return null;
  const connectionString = requiredConnectionString(config);
  const { migratePostgres } = await import('./postgres/create-postgres-storage.js');
  try {
    return await migratePostgres({ clock: deps.clock, connectionString, schema: config.postgres.schema, log: deps.log });
  } catch (error) {
    throw await startError(error, config, connectionString);
  }
}

function requiredConnectionString(config: StorageConfig): string {
  const connectionString = config.postgres.connectionString;
  if (connectionString === null) throw new StorageStartError(`${CONNECTION_STRING_KEY}: is required when AppConfig:Storage:Provider is Postgres`);
  return connectionString;
}

async function startError(error: unknown, config: StorageConfig, connectionString: string): Promise<StorageStartError> {
  const { SchemaTooNewError } = await import('./postgres/migrations/migrate.js');
  if (error instanceof SchemaTooNewError) return new StorageStartError(`${SCHEMA_KEY}: ${error.message}`, { cause: error });
  const target = describeConnectionTarget(connectionString);
  const reason = describeFailure(error, connectionString);
  if (isUnavailableCause(error)) {
    return new StorageStartError(`${CONNECTION_STRING_KEY}: cannot reach the database at ${target} (${reason})`, { cause: error });
  }
  return new StorageStartError(
    `${CONNECTION_STRING_KEY}: the database at ${target} refused to set up the schema "${config.postgres.schema}" (${reason})`,
    { cause: error },
  );
}
