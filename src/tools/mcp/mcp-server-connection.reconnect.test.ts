// McpServerConnection lifecycle against a small SDK-built stdio server: paginated listing, the
// tools/list_changed notification, and reconnecting after the server process dies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import type { Tool, ToolCallContext } from '../tool.js';
import { MCP_CALL_FAILED } from './call-failure-message.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { fixtureStdio, recordingLog } from './mcp-test-servers.js';

const context: ToolCallContext = { ownerId: 'sub:tester', signal: new AbortController().signal };

describe('McpServerConnection lifecycle (fixture server)', () => {
  const log = recordingLog();
  const clock = new ManualClock();
  let connection: McpServerConnection;

  const call = async (name: string): Promise<ReturnType<Tool['invoke']>> => {
    const tool = (await connection.listTools()).find((candidate) => candidate.descriptor.name === `mcp__fixture__${name}`);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return tool.invoke('call', {}, context);
  };
  const pidOf = async (): Promise<number> => {
    const result = await call('pid');
    if (!result.ok) throw new Error(result.error);
    return Number(result.output);
  };

  beforeAll(() => {
    connection = new McpServerConnection({ name: 'fixture', config: fixtureStdio(), callTimeoutMs: 5_000, log, clock });
  });

  afterAll(async () => {
    await connection.close();
  });

  it('follows nextCursor across every page of the listing', async () => {
    const names = (await connection.listTools()).map((tool) => tool.descriptor.name);
    expect(names).toEqual(['pid', 'grow', 'crash', 'alpha', 'bravo', 'charlie'].map((name) => `mcp__fixture__${name}`));
  });

  it('lists again after the server notifies tools/list_changed', async () => {
    await expect(call('grow')).resolves.toEqual({ ok: true, output: 'grow' });
    const names = (await connection.listTools()).map((tool) => tool.descriptor.name);
    expect(names).toContain('mcp__fixture__delta');
  });

  it('reconnects on the next call after the server process is killed', async () => {
    const before = await pidOf();
    const closed = log.nextWarning('connection closed');
    process.kill(before, 'SIGKILL');
    await closed;
    clock.advance(1_000);
    const after = await pidOf();
    expect(after).not.toBe(before);
    await expect(call('alpha')).resolves.toEqual({ ok: true, output: 'alpha' });
  });

  it('fails a call generically when the server dies during it, then restarts it no sooner than a second after the last start', async () => {
    const pid = await pidOf();
    clock.advance(400);
    await expect(call('crash')).resolves.toEqual({ ok: false, error: MCP_CALL_FAILED });
    const started = performance.now();
    const restarted = await pidOf();
    expect(restarted).not.toBe(pid);
    // The clock stood still after the crash, so the remaining 600 ms of the interval were waited out.
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
  });
});
