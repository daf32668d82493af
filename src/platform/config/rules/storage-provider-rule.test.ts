import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-storage-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, ...env }, configFiles: [] });
}

describe('storage configuration', () => {
  it('defaults to the Memory provider, schema portcullis, 10 connections and a 15 s run lease', () => {
    expect(load({})).toMatchObject({
      ok: true,
      config: { storage: { provider: 'Memory', postgres: { connectionString: null, schema: 'portcullis', maxConnections: 10 }, runLeaseTtlMs: 15_000 } },
    });
  });

  it('reads every storage key, the provider case-insensitively', () => {
    const result = load({
      AppConfig__Storage__Provider: 'postgres',
      AppConfig__Storage__Postgres__ConnectionString: 'postgres://app:pw@db:5432/portcullis',
      AppConfig__Storage__Postgres__Schema: 'tenant_a',
      AppConfig__Storage__Postgres__MaxConnections: '25',
      AppConfig__Storage__RunLeaseTtl: '00:00:30',
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        storage: { provider: 'Postgres', postgres: { connectionString: 'postgres://app:pw@db:5432/portcullis', schema: 'tenant_a', maxConnections: 25 }, runLeaseTtlMs: 30_000 },
      },
    });
  });

  it('refuses the Postgres provider without a connection string', () => {
    expect(load({ AppConfig__Storage__Provider: 'Postgres' })).toEqual({
      ok: false,
      problems: ['AppConfig:Storage:Postgres:ConnectionString: is required when AppConfig:Storage:Provider is Postgres'],
    });
  });

  it('refuses a connection string that is not a libpq URI without echoing it', () => {
    const result = load({ AppConfig__Storage__Provider: 'Postgres', AppConfig__Storage__Postgres__ConnectionString: 'host=db password=Hidden-Pw-1' });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual([
      'AppConfig:Storage:Postgres:ConnectionString: must be a libpq URI such as postgres://user:password@host:5432/database (in environment variable AppConfig__Storage__Postgres__ConnectionString)',
    ]);
    expect(problems.join('\n')).not.toContain('Hidden-Pw-1');
  });

  it('refuses a schema name that is not a plain identifier or is reserved, an unknown provider and a pool of 0', () => {
    const result = load({
      AppConfig__Storage__Provider: 'Oracle',
      AppConfig__Storage__Postgres__Schema: 'my-schema',
      AppConfig__Storage__Postgres__MaxConnections: '0',
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.some((p) => p.startsWith('AppConfig:Storage:Provider: must be one of Memory, Postgres'))).toBe(true);
    expect(problems.some((p) => p.startsWith('AppConfig:Storage:Postgres:Schema: must be a PostgreSQL identifier'))).toBe(true);
    expect(problems.some((p) => p.startsWith('AppConfig:Storage:Postgres:MaxConnections:'))).toBe(true);
    expect(load({ AppConfig__Storage__Postgres__Schema: 'pg_mine' })).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('AppConfig:Storage:Postgres:Schema: must not start with pg_')],
    });
  });
});
