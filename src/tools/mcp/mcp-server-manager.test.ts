// McpServerManager: configured servers as tool sources that never throw to the catalog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import { fixtureStdio, recordingLog } from './mcp-test-servers.js';

describe('McpServerManager', () => {
  const log = recordingLog();
  let manager: McpServerManager;

  beforeAll(() => {
    manager = new McpServerManager(
      {
        fixture: fixtureStdio(),
        missing: { transport: 'stdio', command: '/nonexistent/portcullis-mcp-server', args: [], env: {} },
        'bad__name': fixtureStdio(),
      },
      { callTimeoutMs: 5_000, log },
    );
  });

  afterAll(async () => {
    await manager.close();
  });

  it('lists the configured servers whose names can form tool names, warning about the others', () => {
    expect(manager.servers()).toEqual(['fixture', 'missing']);
    expect(log.warnings().some((entry) => entry.object.server === 'bad__name')).toBe(true);
  });

  it('yields no tools and a warning for a server whose command does not exist', async () => {
    await expect(manager.toolsOf('missing')).resolves.toEqual([]);
    const warning = log.warnings().find((entry) => entry.object.server === 'missing');
    expect(warning?.message).toContain('unavailable');
  });

  it('yields no tools for a server that is not configured', async () => {
    await expect(manager.toolsOf('nobody')).resolves.toEqual([]);
  });

  it('collects the tools of every reachable server and skips the unreachable one', async () => {
    const names = (await manager.allTools()).map((tool) => tool.descriptor.name);
    expect(names).toContain('mcp__fixture__alpha');
    expect(names.some((name) => name.startsWith('mcp__missing__'))).toBe(false);
  });

  it('reports per server whether it is connected and on which protocol revision', async () => {
    await expect(manager.status()).resolves.toEqual({ fixture: { connected: true, protocolVersion: '2025-11-25' }, missing: { connected: false } });
  });

  it('yields no tools and no warning when the caller has already given up', async () => {
    const warningsBefore = log.warnings().length;
    await expect(manager.toolsOf('missing', AbortSignal.abort())).resolves.toEqual([]);
    expect(log.warnings()).toHaveLength(warningsBefore);
  });
});
