// McpServerConnection against the real server-filesystem over stdio, rooted in a temporary folder.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool, ToolCallContext } from '../tool.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { filesystemStdio, recordingLog } from './mcp-test-servers.js';

const context: ToolCallContext = { ownerId: 'sub:tester', signal: new AbortController().signal };

describe('McpServerConnection over stdio (server-filesystem)', () => {
  let root: string;
  let outside: string;
  let connection: McpServerConnection;
  let tools: Tool[];
  const tool = (name: string): Tool => {
    const found = tools.find((candidate) => candidate.descriptor.name === `mcp__files__${name}`);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'portcullis-mcp-root-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'portcullis-mcp-outside-')));
    await writeFile(join(root, 'hello.txt'), 'Hello from the root.\n');
    await writeFile(join(outside, 'secret.txt'), 'not for the server\n');
    connection = new McpServerConnection({ name: 'files', config: filesystemStdio(root), callTimeoutMs: 5_000, log: recordingLog() });
    tools = await connection.listTools();
  });

  afterAll(async () => {
    await connection.close();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('lists the filesystem tools, read-only ones Medium and writing ones High', () => {
    expect(tool('list_directory').descriptor).toMatchObject({ riskTier: 'Medium', isReadOnly: true });
    expect(tool('read_text_file').descriptor).toMatchObject({ riskTier: 'Medium', isReadOnly: true });
    expect(tool('write_file').descriptor).toMatchObject({ riskTier: 'High', isReadOnly: false });
  });

  it('lists the root folder', async () => {
    await expect(tool('list_directory').invoke('call', { path: root }, context)).resolves.toEqual({ ok: true, output: '[FILE] hello.txt' });
  });

  it('reads a file created in the root', async () => {
    await expect(tool('read_text_file').invoke('call', { path: join(root, 'hello.txt') }, context)).resolves.toEqual({
      ok: true,
      output: 'Hello from the root.\n',
    });
  });

  it('returns a read outside the root as a tool failure from the server', async () => {
    const result = await tool('read_text_file').invoke('call', { path: join(outside, 'secret.txt') }, context);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('Access denied');
    expect(JSON.stringify(result)).not.toContain('not for the server');
  });
});
