// Keys of AppConfig:Storage (DESIGN.md §11): which storage provider holds the service's state and,
// for PostgreSQL, where. That ConnectionString is required with Postgres is a rule (rules/).
import { concurrencyCapCodec } from '../codecs/range-codecs.js';
import { postgresConnectionStringCodec, postgresSchemaCodec } from '../codecs/postgres-codecs.js';
import { enumCodec } from '../codecs/text-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { defineKeys } from '../define-keys.js';

export const storageProviders = ['Memory', 'Postgres'] as const;
export type StorageProviderName = (typeof storageProviders)[number];

const at = <Name extends string>(name: Name) => `AppConfig:Storage:${name}` as const;

export const storageKeys = defineKeys([
  {
    key: at('Provider'),
    codec: enumCodec(storageProviders),
    default: 'Memory',
    meaning:
      'Memory: one process, nothing survives a restart. Postgres: PostgreSQL is the system of record, shared by every instance pointed at the same database.',
  },
  {
    key: at('Postgres:ConnectionString'),
    codec: postgresConnectionStringCodec,
    default: null,
    meaning: 'libpq URI (postgres://user:pass@host:5432/db); required with Postgres; never logged (the password is redacted).',
    secret: true,
  },
  {
    key: at('Postgres:Schema'),
    codec: postgresSchemaCodec,
    default: 'portcullis',
    meaning: 'Schema holding every table, so one database can host several deployments.',
  },
  { key: at('Postgres:MaxConnections'), codec: concurrencyCapCodec, default: 10, meaning: 'Pool size per instance (plus one listening connection).' },
  {
    key: at('RunLeaseTtl'),
    codec: timeSpanCodec,
    default: '00:00:15',
    meaning: 'An instance renews a lease on every run it executes; a run whose lease lapsed (its instance died) is taken over by another instance.',
  },
]);
