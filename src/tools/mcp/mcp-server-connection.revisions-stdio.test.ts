// McpServerConnection over stdio against both generations of server: a v2 server package server,
// reached on 2026-07-28, and v1 SDK fixtures on the 2025 revisions, one of them silent to the version
// probe. The probe runs on a disposable sibling process; the fixture's start log counts those.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import type { McpServerConfig } from '../../platform/config/types.js';
import type { ToolCallContext, ToolResult } from '../tool.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { fixtureStdio, modernStdio, recordingLog, type RecordingLog } from './mcp-test-servers.js';

const context: ToolCallContext = { ownerId: 'sub:tester', signal: new AbortController().signal };

describe('McpServerConnection over stdio, across protocol revisions', () => {
  const clock = new ManualClock();
  let dir: string;
  let connection: McpServerConnection | undefined;

  const connect = (config: McpServerConfig, log: RecordingLog, connectTimeoutMs?: number): McpServerConnection =>
    (connection = new McpServerConnection({ name: 'local', config, callTimeoutMs: 5_000, log, clock, ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }) }));
  const call = async (name: string, parameters: Record<string, unknown> = {}): Promise<ToolResult> => {
    const tool = (await connection!.listTools()).find((candidate) => candidate.descriptor.name === `mcp__local__${name}`);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return tool.invoke('call', parameters, context);
  };
  /** Kills the server process behind the connection and lets the next use reconnect at once. */
  const killServer = async (log: RecordingLog): Promise<number> => {
    const result = await call('pid');
    if (!result.ok) throw new Error(result.error);
    const closed = log.nextWarning('connection closed');
    process.kill(Number(result.output), 'SIGKILL');
    await closed;
    clock.advance(1_000);
    return Number(result.output);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portcullis-mcp-starts-'));
  });

  afterEach(async () => {
    await connection?.close();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reaches a server on the v2 package on 2026-07-28, calls it, and negotiates again after it died', async () => {
    const log = recordingLog();
    connect(modernStdio(), log);
    await expect(call('echo', { text: 'current' })).resolves.toEqual({ ok: true, output: 'current' });
    expect(connection!.protocolVersion).toBe('2026-07-28');
    expect(log.entries).toContainEqual({ level: 'info', object: { server: 'local', transport: 'stdio', protocolVersion: '2026-07-28' }, message: 'MCP server connected' });
    const before = await killServer(log);
    const after = await call('pid');
    expect(after.ok && Number(after.output)).not.toBe(before);
    expect(connection!.protocolVersion).toBe('2026-07-28');
  });

  it('reaches a server silent to the probe on 2025-11-25 once the probe bound passes, and restarts it without probing', async () => {
    const starts = join(dir, 'silent.txt');
    const log = recordingLog();
    const started = performance.now();
    // A connect deadline past the probe's own 3 s: the fallback session then has room to start its
    // process on a busy machine (with 1.5 s, both the probe and the fallback had to fit in it).
    connect(fixtureStdio({ FIXTURE_STARTS: starts, FIXTURE_SILENT: '1' }), log, 10_000);
    await expect(call('alpha')).resolves.toEqual({ ok: true, output: 'alpha' });
    // The probe bound is the smaller of 3 s and the connect deadline (timers may fire a little early).
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_950);
    expect(connection!.protocolVersion).toBe('2025-11-25');
    const pids = async (): Promise<string[]> => (await readFile(starts, 'utf8')).trim().split('\n');
    expect(await pids()).toHaveLength(2);
    await killServer(log);
    await expect(call('bravo')).resolves.toEqual({ ok: true, output: 'bravo' });
    // One more process: the session itself, no probe sibling.
    expect(await pids()).toHaveLength(3);
    expect(connection!.protocolVersion).toBe('2025-11-25');
  });
});
