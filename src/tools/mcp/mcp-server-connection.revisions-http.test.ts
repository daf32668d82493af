// McpServerConnection over Streamable HTTP against both generations of server: one on the v2 server
// package, reached on 2026-07-28 without a handshake, and one on the v1 SDK, reached on 2025-11-25
// after the version probe fell back to `initialize`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHttpMcpServer, type HttpMcpServer } from '../../../test/helpers/http-mcp-server.js';
import { ManualClock } from '../../platform/clock/index.js';
import type { Tool, ToolCallContext } from '../tool.js';
import { MCP_CALL_FAILED } from './call-failure-message.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { recordingLog } from './mcp-test-servers.js';

const context: ToolCallContext = { ownerId: 'sub:tester', signal: new AbortController().signal };

function connectionTo(server: HttpMcpServer, clock = new ManualClock(), log = recordingLog()): McpServerConnection {
  return new McpServerConnection({ name: 'remote', config: { transport: 'http', url: server.url, headers: {} }, callTimeoutMs: 5_000, log, clock });
}

async function echo(connection: McpServerConnection, text: string): ReturnType<Tool['invoke']> {
  const tool = (await connection.listTools()).find((candidate) => candidate.descriptor.name === 'mcp__remote__echo');
  if (tool === undefined) throw new Error('no echo');
  return tool.invoke('call', { text }, context);
}

describe('McpServerConnection over Streamable HTTP, a server speaking 2026-07-28', () => {
  const log = recordingLog();
  const clock = new ManualClock();
  let server: HttpMcpServer;
  let connection: McpServerConnection;

  beforeAll(async () => {
    server = await startHttpMcpServer({ speaks: 'modern' });
    connection = connectionTo(server, clock, log);
  });

  afterAll(async () => {
    await connection.close();
    await server.close();
  });

  it('lists and calls its tool on 2026-07-28: a server/discover probe, no initialize, the revision on every request', async () => {
    await expect(echo(connection, 'current')).resolves.toEqual({ ok: true, output: 'current' });
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(server.methods[0]).toBe('server/discover');
    expect(server.methods).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    expect(server.methods).not.toContain('initialize');
    expect(server.headers.map((headers) => headers['mcp-protocol-version'])).toEqual(server.headers.map(() => '2026-07-28'));
    expect(server.headers.every((headers) => headers['mcp-session-id'] === undefined)).toBe(true);
    expect(log.entries).toContainEqual({ level: 'info', object: { server: 'remote', transport: 'http', protocolVersion: '2026-07-28' }, message: 'MCP server connected' });
  });

  it('lists again once the server announces a changed tool list on the subscription', async () => {
    const listsBefore = server.methods.filter((method) => method === 'tools/list').length;
    server.addTool('echo-too');
    await expect.poll(async () => (await connection.listTools()).map((tool) => tool.descriptor.name)).toContain('mcp__remote__echo-too');
    expect(server.methods.filter((method) => method === 'tools/list').length).toBe(listsBefore + 1);
  });

  it('fails a call generically while the server is gone and negotiates afresh once it is back', async () => {
    const { port } = server;
    await server.close();
    clock.advance(1_000);
    await expect(echo(connection, 'anyone?')).resolves.toEqual({ ok: false, error: MCP_CALL_FAILED });
    server = await startHttpMcpServer({ speaks: 'modern', port });
    clock.advance(1_000);
    await expect(echo(connection, 'back')).resolves.toEqual({ ok: true, output: 'back' });
    expect(server.methods[0]).toBe('server/discover');
    expect(connection.protocolVersion).toBe('2026-07-28');
  });
});

describe('McpServerConnection over Streamable HTTP, a server speaking only the 2025 revisions', () => {
  let server: HttpMcpServer;
  let connection: McpServerConnection | undefined;

  beforeAll(async () => {
    server = await startHttpMcpServer({ speaks: 'legacy' });
  });

  afterEach(async () => {
    await connection?.close();
  });

  afterAll(async () => {
    await server.close();
  });

  it('falls back from the probe to initialize and lists and calls its tool on 2025-11-25', async () => {
    connection = connectionTo(server);
    await expect(echo(connection, 'older')).resolves.toEqual({ ok: true, output: 'older' });
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect(server.methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    // The probe claimed 2026-07-28; once it was refused, nothing did.
    expect(server.headers.slice(2).map((headers) => headers['mcp-protocol-version'])).toEqual(server.headers.slice(2).map(() => '2025-11-25'));
  });
});
