// DESIGN.md §11: the Postgres provider needs a connection string; start-up refuses without one.
import type { ConfigRule } from './config-rule.js';

const STORAGE = 'AppConfig:Storage';

export const storageProviderRule: ConfigRule = {
  reads: [`${STORAGE}:Provider`, `${STORAGE}:Postgres:ConnectionString`],
  check({ storage }, report) {
    if (storage.provider === 'Postgres' && storage.postgres.connectionString === null) {
      report.problem(`${STORAGE}:Postgres:ConnectionString: is required when ${STORAGE}:Provider is Postgres`);
    }
  },
};
