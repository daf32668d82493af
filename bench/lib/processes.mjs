// Starts benchmark servers (server-process.mjs) as child processes and talks to them over IPC.
// BENCH_PROFILE=<dir> starts every server (Portcullis and bare) with `node --cpu-prof` writing into <dir>
// (one .cpuprofile per server, written when it closes; BENCH_PROFILE_INTERVAL=<µs> samples more
// often): profile first, then fix.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./server-process.mjs', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Node flags `npm start` gives the service (the `node --flag …` of package.json's start script;
 * the Dockerfile's entry point gives the same), read from the tree being served: every benchmark
 * server, the bare baseline too, runs with them, so a ratio compares code and a figure is the
 * product's as it is started. A tree whose start script has none gets none.
 */
export function serviceNodeFlags(tree = root) {
  const start = JSON.parse(readFileSync(resolve(tree, 'package.json'), 'utf8')).scripts?.start ?? '';
  const flags = /(?:^|\s)node((?:\s+--\S+)*)\s/.exec(start)?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

/**
 * @param spec see server-process.mjs
 * @returns {Promise<{ url: string, pid: number, memory(): Promise<NodeJS.MemoryUsage>, cpu(): Promise<NodeJS.CpuUsage>, close(): Promise<void> }>}
 */
export async function startServer(spec, { exposeGc = false, tree } = {}) {
  const execArgv = serviceNodeFlags(tree);
  if (exposeGc) execArgv.push('--expose-gc');
  // BENCH_NODE_ARGS="--trace-gc …": further V8/Node flags for every server (diagnosis: what a run's GC costs).
  if (process.env.BENCH_NODE_ARGS) execArgv.push(...process.env.BENCH_NODE_ARGS.split(/\s+/).filter(Boolean));
  if (process.env.BENCH_PROFILE) execArgv.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`);
  // BENCH_PROFILE_INTERVAL=<µs>: a finer sampling interval than V8's 1,000 µs (short runs, small costs).
  if (process.env.BENCH_PROFILE && process.env.BENCH_PROFILE_INTERVAL) execArgv.push(`--cpu-prof-interval=${process.env.BENCH_PROFILE_INTERVAL}`);
  // The service logs to fd 2 as `portcullis serve` does; here that is /dev/null (BENCH_SERVER_LOG=inherit shows it).
  const stderr = process.env.BENCH_SERVER_LOG === 'inherit' ? 'inherit' : 'ignore';
  // `tree`: another checkout with its own dist/ (BENCH_BEFORE), so one run can set two builds side by side.
  const entry = tree === undefined ? script : resolve(tree, 'bench', 'lib', 'server-process.mjs');
  const child = fork(entry, [JSON.stringify(spec)], { execArgv, stdio: ['ignore', 'inherit', stderr, 'ipc'] });
  const { url } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`benchmark server (${spec.kind}) exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ask = (what, payload = what) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message[what] === undefined) return;
        child.off('message', onMessage);
        resolve(message[what]);
      };
      child.on('message', onMessage);
      child.send(payload);
    });
  return {
    url,
    pid: child.pid,
    /** process.memoryUsage() of the server after a full GC (exposeGc) */
    memory: () => ask('memory'),
    /** process.cpuUsage() of the server: user and system µs so far */
    cpu: () => ask('cpu'),
    /** Writes a heap snapshot of the server to `path` (for diagnosis). */
    heapSnapshot: (path) => ask('heapSnapshot', { heapSnapshot: path }),
    close: async () => {
      child.send('close');
      await exited;
    },
  };
}

/**
 * `portcullis serve --port 0` (the built CLI at `cli`) in `cwd` with `env`, its JSON log lines parsed
 * into `lines` as they come (stdout and stderr); resolves once it says where it listens.
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess, lines: object[] }>}
 */
export function serveLogged(cli, cwd, env) {
  const child = spawn(process.execPath, [...serviceNodeFlags(), cli, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let pending = '';
  const take = (chunk) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop();
    for (const line of parts) if (line.startsWith('{')) lines.push(JSON.parse(line));
  };
  child.stderr.on('data', take);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      take(chunk);
      out += chunk;
      const match = /^listening on (\S+)$/m.exec(out);
      if (match) resolve({ url: match[1], child, lines });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}
