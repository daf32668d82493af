// `portcullis migrate` and `portcullis serve` with the Postgres provider, as processes against a
// real PostgreSQL server this file starts (and stops, to show a database lost while serving): exit
// codes, the one line naming the key, /readyz naming `storage` while the database is away and
// recovering without a restart, and the password in no output at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, migrations } from '../../src/platform/storage/postgres/migrations/index.js';
import { runCli, startServe } from '../helpers/cli-process.js';
import { freePort } from '../helpers/free-port.js';
import { adminQuery, startEmbeddedPostgres, type EmbeddedPostgresServer } from '../helpers/postgres.js';

const PASSWORD = 'Cli-Secret-9931';
let server: EmbeddedPostgresServer;
let cwd: string;

beforeAll(async () => {
  [server, cwd] = await Promise.all([startEmbeddedPostgres({ password: PASSWORD }), mkdtemp(join(tmpdir(), 'portcullis-storage-cli-'))]);
});
afterAll(async () => {
  await server.destroy();
  await rm(cwd, { recursive: true, force: true });
});

function env(storage: Record<string, string>): Record<string, string> {
  return {
    PORTCULLIS_ENVIRONMENT: 'Development',
    AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true',
    AppConfig__Logging__Level: 'warn',
    ...storage,
  };
}

function postgresKeys(schema: string, url = server.url): Record<string, string> {
  return { AppConfig__Storage__Provider: 'Postgres', AppConfig__Storage__Postgres__ConnectionString: url, AppConfig__Storage__Postgres__Schema: schema };
}

function postgres(schema: string, url = server.url): Record<string, string> {
  return env(postgresKeys(schema, url));
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('portcullis migrate', () => {
  it('explains itself with --help (exit 0) and refuses an unknown option (exit 2)', async () => {
    const help = await runCli(['migrate', '--help'], { cwd, env: env({}) });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: portcullis migrate [--config FILE]...');
    expect(help.stdout).toContain('--config FILE');
    const bad = await runCli(['migrate', '--bogus'], { cwd, env: env({}) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('usage: portcullis migrate');
  });

  it('has nothing to migrate with the Memory provider', async () => {
    const result = await runCli(['migrate'], { cwd, env: env({}) });
    expect(result).toMatchObject({ code: 0, stdout: 'AppConfig:Storage:Provider is Memory: nothing to migrate.\n' });
  });

  it('applies the migrations to a fresh schema, then finds it up to date', async () => {
    const first = await runCli(['migrate'], { cwd, env: postgres('cli_fresh') });
    const versions = migrations.map((migration) => migration.version);
    expect(first).toMatchObject({ code: 0, stdout: `applied migration${versions.length > 1 ? 's' : ''} ${versions.join(', ')} to schema "cli_fresh" (now version ${LATEST_SCHEMA_VERSION})\n` });
    const again = await runCli(['migrate'], { cwd, env: postgres('cli_fresh') });
    expect(again).toMatchObject({ code: 0, stdout: `schema "cli_fresh" is up to date (version ${LATEST_SCHEMA_VERSION})\n` });
    expect(first.stderr + again.stderr).not.toContain(PASSWORD);
  });

  // Issue 27: the PostgreSQL snippet (docs/reference/postgres.md) runs migrate before any authentication is configured.
  it('needs no authentication: a Production configuration with storage keys only migrates, and with Memory has nothing to do', async () => {
    const storageOnly = (storage: Record<string, string>): Record<string, string> => ({ AppConfig__Logging__Level: 'warn', ...storage });
    const serve = await runCli(['serve', '--port', '0'], { cwd, env: storageOnly({}) });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('no authentication configured');
    const memory = await runCli(['migrate'], { cwd, env: storageOnly({}) });
    expect(memory).toMatchObject({ code: 0, stdout: 'AppConfig:Storage:Provider is Memory: nothing to migrate.\n', stderr: '' });
    const migrated = await runCli(['migrate'], { cwd, env: storageOnly(postgresKeys('cli_no_auth')) });
    expect(migrated).toMatchObject({ code: 0, stdout: expect.stringContaining('to schema "cli_no_auth" (now version') as unknown });
    const missing = await runCli(['migrate'], { cwd, env: storageOnly({ AppConfig__Storage__Provider: 'Postgres' }) });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('AppConfig:Storage:Postgres:ConnectionString: is required when AppConfig:Storage:Provider is Postgres\n');
  });

  it('exits 1 naming the key when the database is unreachable or the schema is newer, never showing the password', async () => {
    const port = await freePort();
    const down = await runCli(['migrate'], { cwd, env: postgres('cli_x', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`) });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^AppConfig:Storage:Postgres:ConnectionString: cannot reach the database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres \(.*\)\n$/);
    await runCli(['migrate'], { cwd, env: postgres('cli_newer') });
    await adminQuery(`INSERT INTO cli_newer.schema_migrations VALUES (${LATEST_SCHEMA_VERSION + 1}, 'future', 0)`, [], server.url);
    const newer = await runCli(['migrate'], { cwd, env: postgres('cli_newer') });
    expect(newer.code).toBe(1);
    expect(newer.stderr).toMatch(new RegExp(`^AppConfig:Storage:Postgres:Schema: the schema "cli_newer" was migrated by a newer version of Portcullis \\(schema version ${LATEST_SCHEMA_VERSION + 1}; this build knows up to ${LATEST_SCHEMA_VERSION}\\)`));
    expect(down.stderr + down.stdout + newer.stderr + newer.stdout).not.toContain(PASSWORD);
  });
});

describe('portcullis serve on PostgreSQL', () => {
  it('exits 1 with one line naming the key when the database is down at start-up', async () => {
    const port = await freePort();
    const result = await runCli(['serve', '--port', '0'], { cwd, env: postgres('cli_serve', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^AppConfig:Storage:Postgres:ConnectionString: cannot reach the database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres \(.*\)\n$/);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  });

  it('migrates at start-up, answers /readyz 503 naming storage while the database is lost, and recovers without a restart', async () => {
    const serve = await startServe({ cwd, env: postgres('cli_serve') });
    try {
      const ready = async () => (await fetch(`${serve.url}/readyz`)).status === 200;
      expect(await ready()).toBe(true);
      expect(await adminQuery('SELECT version FROM cli_serve.schema_migrations', [], server.url)).toEqual(migrations.map((migration) => ({ version: migration.version })));
      await server.stop();
      const lost = await fetch(`${serve.url}/readyz`);
      expect(lost.status).toBe(503);
      // A request that needs the database answers 503 too, as a problem document, and never hangs.
      const unavailable = await fetch(`${serve.url}/api/workflows`, { signal: AbortSignal.timeout(10_000) });
      expect(unavailable.status).toBe(503);
      expect(await unavailable.json()).toMatchObject({ title: 'Service unavailable', detail: 'The service cannot reach its storage right now; try again shortly.' });
      expect(lost.headers.get('content-type')).toContain('application/problem+json');
      expect(await lost.json()).toMatchObject({ title: 'Service unavailable', checks: { storage: false } });
      await server.start();
      await eventually(ready);
      expect(await (await fetch(`${serve.url}/readyz`)).json()).toMatchObject({ status: 'ready', checks: { storage: true } });
      expect((await fetch(`${serve.url}/api/workflows`)).status).toBe(200);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    const { stdout, stderr } = serve.output();
    expect(stderr).toContain('storage: the database is unreachable');
    expect(stdout + stderr).not.toContain(PASSWORD);
  });
});
