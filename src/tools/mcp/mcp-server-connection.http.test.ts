// McpServerConnection against the real server-everything over Streamable HTTP on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import type { Tool, ToolCallContext } from '../tool.js';
import { MCP_CALL_FAILED } from './call-failure-message.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { recordingLog, startEverythingHttp, type RunningHttpServer } from './mcp-test-servers.js';

const context: ToolCallContext = { ownerId: 'sub:tester', signal: new AbortController().signal };

describe('McpServerConnection over Streamable HTTP (server-everything)', () => {
  let server: RunningHttpServer;
  let connection: McpServerConnection;
  let tools: Tool[];
  // Reconnect pacing is driven by hand so the restart below needs no real waiting.
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startEverythingHttp();
    connection = new McpServerConnection({
      name: 'remote',
      config: { transport: 'http', url: server.url, headers: { 'X-Portcullis-Test': 'yes' } },
      callTimeoutMs: 5_000,
      log: recordingLog(),
      clock,
    });
    tools = await connection.listTools();
  });

  afterAll(async () => {
    await connection.close();
    await server.stop();
  });

  it('lists the server tools under the configured server name', () => {
    const names = tools.map((tool) => tool.descriptor.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__remote__echo', 'mcp__remote__get-sum']));
  });

  it('opens a 2025-11-25 session with this server, built on the v1 SDK', () => {
    expect(connection.protocolVersion).toBe('2025-11-25');
  });

  it('calls echo and get-sum over HTTP', async () => {
    const echo = tools.find((tool) => tool.descriptor.name === 'mcp__remote__echo');
    const sum = tools.find((tool) => tool.descriptor.name === 'mcp__remote__get-sum');
    await expect(echo!.invoke('call', { message: 'over http' }, context)).resolves.toEqual({ ok: true, output: 'Echo: over http' });
    await expect(sum!.invoke('call', { a: 1, b: 2 }, context)).resolves.toEqual({ ok: true, output: 'The sum of 1 and 2 is 3.' });
  });

  it('returns structured content as the text the server also sent', async () => {
    const weather = tools.find((tool) => tool.descriptor.name === 'mcp__remote__get-structured-content');
    const result = await weather!.invoke('call', { location: 'Chicago' }, context);
    expect(result.ok && (JSON.parse(result.output) as unknown)).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
  });

  it('fails a call generically while the server is gone and opens a new session once it is back, one attempt per backoff interval', async () => {
    const echo = tools.find((tool) => tool.descriptor.name === 'mcp__remote__echo')!;
    await server.stop();
    clock.advance(1_000);
    await expect(echo.invoke('call', { message: 'anyone?' }, context)).resolves.toEqual({ ok: false, error: MCP_CALL_FAILED });
    server = await startEverythingHttp(server.port);
    clock.advance(1_000);
    await expect(echo.invoke('call', { message: 'back' }, context)).resolves.toEqual({ ok: true, output: 'Echo: back' });
    expect(connection.protocolVersion).toBe('2025-11-25');
  });
});
