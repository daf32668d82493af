// Test support (no production code imports it): launch configurations for the reference MCP
// servers installed from npm, run with this Node binary and their package `bin` file (no npx, no
// network), a tiny paginating fixture server on the v1 SDK (2025 revisions only), a small server on
// the v2 server package over stdio (2026-07-28), and a recording log.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { McpLog } from './mcp-log.js';

const require = createRequire(import.meta.url);

function binPath(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${packageName} declares no bin`);
  return join(dirname(manifestPath), bin);
}

export function everythingStdio(env: Record<string, string> = {}): McpServerConfig {
  return { transport: 'stdio', command: process.execPath, args: [binPath('@modelcontextprotocol/server-everything'), 'stdio'], env };
}

export function filesystemStdio(root: string): McpServerConfig {
  return { transport: 'stdio', command: process.execPath, args: [binPath('@modelcontextprotocol/server-filesystem'), root], env: {} };
}

/**
 * A server built on the v1 SDK's low-level Server: six tools listed two per page, `pid` (its process
 * id), `grow` (adds a tool and notifies `tools/list_changed`), `crash` (exits mid-call), `alpha`,
 * `bravo`, `charlie`. `FIXTURE_STARTS` names a file each process appends its pid to (probe siblings
 * included); with `FIXTURE_SILENT` it never answers a request it has no handler for (`server/discover`).
 */
const FIXTURE_SOURCE = `
const [serverPath, stdioPath, typesPath] = process.argv.slice(1);
const { Server } = require(serverPath);
const { StdioServerTransport } = require(stdioPath);
const { ListToolsRequestSchema, CallToolRequestSchema } = require(typesPath);
if (process.env.FIXTURE_STARTS) require('node:fs').appendFileSync(process.env.FIXTURE_STARTS, process.pid + '\\n');
const names = ['pid', 'grow', 'crash', 'alpha', 'bravo', 'charlie'];
const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
if (process.env.FIXTURE_SILENT) server.fallbackRequestHandler = () => new Promise(() => {});
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const tools = names.slice(start, start + 2).map((name) => ({ name, description: 'Fixture ' + name, inputSchema: { type: 'object' } }));
  return start + 2 < names.length ? { tools, nextCursor: String(start + 2) } : { tools };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  if (name === 'crash') process.exit(3);
  if (name === 'grow') { names.push('delta'); await server.sendToolListChanged(); }
  return { content: [{ type: 'text', text: name === 'pid' ? String(process.pid) : name }] };
});
server.connect(new StdioServerTransport());
`;

export function fixtureStdio(env: { FIXTURE_STARTS?: string; FIXTURE_SILENT?: '1' } = {}): McpServerConfig {
  const sdk = (path: string): string => require.resolve(`@modelcontextprotocol/sdk/${path}`);
  return {
    transport: 'stdio',
    command: process.execPath,
    args: ['-e', FIXTURE_SOURCE, sdk('server/index.js'), sdk('server/stdio.js'), sdk('types.js')],
    env: { ...env },
  };
}

/** A v2 server package server over stdio (`serveStdio`: 2026-07-28, or 2025 for an `initialize`): `echo` and `pid`. */
const MODERN_SOURCE = `
const [serverPath, stdioPath, zodPath] = process.argv.slice(1);
const { McpServer } = require(serverPath);
const { serveStdio } = require(stdioPath);
const { z } = require(zodPath);
serveStdio(() => {
  const server = new McpServer({ name: 'modern-fixture', version: '2.0.0' });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('pid', { description: 'Its process id.', inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: String(process.pid) }] }));
  return server;
});
`;

export function modernStdio(): McpServerConfig {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: ['-e', MODERN_SOURCE, require.resolve('@modelcontextprotocol/server'), require.resolve('@modelcontextprotocol/server/stdio'), require.resolve('zod')],
    env: {},
  };
}

export interface RunningHttpServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server; resolves once it has exited and its port is free. */
  stop(): Promise<void>;
}

/**
 * server-everything in Streamable HTTP mode (its `streamableHttp` argument, `PORT` from the env),
 * ready once the port accepts. The server binds every interface; the tests only use 127.0.0.1.
 */
export async function startEverythingHttp(port?: number): Promise<RunningHttpServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [binPath('@modelcontextprotocol/server-everything'), 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(chosen) },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    await waitForPort(chosen, 15_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port: chosen, url: `http://127.0.0.1:${chosen}/mcp`, stop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface LogEntry {
  readonly level: 'warn' | 'info';
  readonly object: Record<string, unknown>;
  readonly message: string;
}

export interface RecordingLog extends McpLog {
  readonly entries: LogEntry[];
  warnings(): LogEntry[];
  /** Resolves at the next warning logged after the call whose message contains `text`. */
  nextWarning(text: string): Promise<LogEntry>;
}

export function recordingLog(): RecordingLog {
  const entries: LogEntry[] = [];
  const waiters: { text: string; resolve: (entry: LogEntry) => void }[] = [];
  const record = (level: LogEntry['level'], object: object, message: string): void => {
    const entry = { level, object: object as Record<string, unknown>, message };
    entries.push(entry);
    for (const waiter of [...waiters]) {
      if (level === 'warn' && message.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    }
  };
  return {
    entries,
    warn: (object, message) => record('warn', object, message),
    info: (object, message) => record('info', object, message),
    warnings: () => entries.filter((entry) => entry.level === 'warn'),
    nextWarning: (text) =>
      new Promise((resolve) => {
        waiters.push({ text, resolve });
      }),
  };
}
