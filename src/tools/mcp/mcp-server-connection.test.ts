// McpServerConnection against the real server-everything over stdio.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool, ToolCallContext } from '../tool.js';
import { MCP_CALL_CANCELLED, MCP_CALL_TIMED_OUT } from './call-failure-message.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { everythingStdio, recordingLog } from './mcp-test-servers.js';

const HOST_SECRET = 'PORTCULLIS_MCP_TEST_HOST_SECRET';

function context(signal: AbortSignal = new AbortController().signal): ToolCallContext {
  return { ownerId: 'sub:tester', signal };
}

describe('McpServerConnection over stdio (server-everything)', () => {
  const log = recordingLog();
  let connection: McpServerConnection;
  let tools: Tool[];
  const tool = (name: string): Tool => {
    const found = tools.find((candidate) => candidate.descriptor.name === `mcp__everything__${name}`);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };

  beforeAll(async () => {
    // Visible to the child only if the host environment leaked into it.
    process.env[HOST_SECRET] = 'host-secret-value';
    connection = new McpServerConnection({
      name: 'everything',
      config: everythingStdio({ CONFIGURED_FOR_SERVER: 'yes' }),
      callTimeoutMs: 5_000,
      log,
    });
    tools = await connection.listTools();
  });

  afterAll(async () => {
    delete process.env[HOST_SECRET];
    await connection.close();
  });

  it('lists the server tools as mcp__everything__<tool> with one call operation on their input schema', () => {
    const names = tools.map((candidate) => candidate.descriptor.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__trigger-long-running-operation']));
    const sum = tool('get-sum').descriptor;
    expect(sum.operations.map((operation) => operation.name)).toEqual(['call']);
    expect(sum.operations[0]?.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(sum.operations[0]?.parameters).not.toHaveProperty('$schema');
    expect(sum.description).toBe('Returns the sum of two numbers');
  });

  it('reaches this server, built on the v1 SDK, on 2025-11-25 after the version probe', () => {
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect(log.entries).toContainEqual({ level: 'info', object: { server: 'everything', transport: 'stdio', protocolVersion: '2025-11-25' }, message: 'MCP server connected' });
  });

  it('leaves out a tool that only runs as a task', () => {
    expect(tools.map((candidate) => candidate.descriptor.name)).not.toContain('mcp__everything__simulate-research-query');
  });

  it('maps readOnlyHint true to Medium and read-only, and its absence of true to High', () => {
    expect(tool('echo').descriptor).toMatchObject({ riskTier: 'Medium', isReadOnly: true, reachesNetwork: true, isDirectlyInvocable: true });
    expect(tool('toggle-simulated-logging').descriptor).toMatchObject({ riskTier: 'High', isReadOnly: false });
  });

  it('answers a second listing from the cache with the same tools', async () => {
    const again = await connection.listTools();
    expect(again.map((candidate) => candidate.descriptor.name)).toEqual(tools.map((candidate) => candidate.descriptor.name));
  });

  it('calls echo and returns its text', async () => {
    await expect(tool('echo').invoke('call', { message: 'hello' }, context())).resolves.toEqual({ ok: true, output: 'Echo: hello' });
  });

  it('calls get-sum and returns the sum', async () => {
    await expect(tool('get-sum').invoke('call', { a: 2, b: 40 }, context())).resolves.toEqual({
      ok: true,
      output: 'The sum of 2 and 40 is 42.',
    });
  });

  it('returns arguments the server rejects as a tool failure carrying its message (isError, not a protocol error)', async () => {
    const result = await tool('get-sum').invoke('call', { a: 'two' }, context());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('Input validation error');
  });

  it('describes image content instead of passing its bytes', async () => {
    const result = await tool('get-tiny-image').invoke('call', {}, context());
    expect(result.ok && result.output.split('\n')).toEqual([
      "Here's the image you requested:",
      '{"type":"image","mimeType":"image/png"}',
      'The image above is the MCP logo.',
    ]);
  });

  it('refuses an operation other than call', async () => {
    const result = await tool('echo').invoke('run', { message: 'x' }, context());
    expect(result).toEqual({ ok: false, error: "Unknown operation 'run' for mcp__everything__echo." });
  });

  it('gives the child only the configured env over a minimal inherited set, never the host environment', async () => {
    const result = await tool('get-env').invoke('call', {}, context());
    if (!result.ok) throw new Error(result.error);
    const env = JSON.parse(result.output) as Record<string, string>;
    expect(env.CONFIGURED_FOR_SERVER).toBe('yes');
    expect(env).not.toHaveProperty(HOST_SECRET);
    expect(Object.keys(env).every((key) => ['CONFIGURED_FOR_SERVER', 'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(key))).toBe(true);
  });

  it('ends a call that outlives the per-call deadline quickly as a failure and keeps the connection usable', async () => {
    const hurried = new McpServerConnection({ name: 'everything', config: everythingStdio(), callTimeoutMs: 300, log });
    try {
      const [longRunning] = (await hurried.listTools()).filter((candidate) => candidate.descriptor.name.endsWith('trigger-long-running-operation'));
      const started = performance.now();
      const result = await longRunning!.invoke('call', { duration: 10, steps: 2 }, context());
      expect(result).toEqual({ ok: false, error: MCP_CALL_TIMED_OUT });
      expect(performance.now() - started).toBeLessThan(2_000);
      const echo = (await hurried.listTools()).find((candidate) => candidate.descriptor.name === 'mcp__everything__echo');
      await expect(echo!.invoke('call', { message: 'still here' }, context())).resolves.toEqual({ ok: true, output: 'Echo: still here' });
    } finally {
      await hurried.close();
    }
  });

  it('stops a call promptly when the caller aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = tool('trigger-long-running-operation').invoke('call', { duration: 10, steps: 2 }, context(controller.signal));
    setTimeout(() => controller.abort(), 100);
    await expect(pending).resolves.toEqual({ ok: false, error: MCP_CALL_CANCELLED });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses a call whose signal is already aborted without reaching the server', async () => {
    const result = await tool('echo').invoke('call', { message: 'late' }, context(AbortSignal.abort()));
    expect(result).toEqual({ ok: false, error: MCP_CALL_CANCELLED });
  });

  it('relays the server stderr to the log', () => {
    expect(log.entries.some((entry) => entry.object.stderr === 'Starting default (STDIO) server...')).toBe(true);
  });
});
