import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-mcp-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>, configFiles: string[] = []): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, ...env }, configFiles });
}

describe('MCP server rule', () => {
  it('requires Command for a stdio server', () => {
    expect(load({ AppConfig__AI__McpServers__files__Transport: 'stdio' })).toEqual({
      ok: false,
      problems: ['AppConfig:AI:McpServers:files:Command: is required when Transport is stdio'],
    });
  });

  it('requires Url for an http server', () => {
    expect(load({ AppConfig__AI__McpServers__remote__Transport: 'http' })).toEqual({
      ok: false,
      problems: ['AppConfig:AI:McpServers:remote:Url: is required when Transport is http'],
    });
  });

  it.each(['not a url', 'ftp://mcp.example/', 'mcp.example:8080'])('refuses the http server Url %j', (url) => {
    const result = load({ AppConfig__AI__McpServers__remote__Transport: 'http', AppConfig__AI__McpServers__remote__Url: url });
    expect(result).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^AppConfig:AI:McpServers:remote:Url: must be an absolute http:\/\/ or https:\/\/ URL/)],
    });
  });

  it('requires a Transport, and only stdio or http', () => {
    const result = load({ AppConfig__AI__McpServers__a__Command: 'x', AppConfig__AI__McpServers__b__Transport: 'sse' });
    expect(result).toEqual({
      ok: false,
      problems: [
        'AppConfig:AI:McpServers:a:Transport: is required',
        'AppConfig:AI:McpServers:b:Transport: must be one of stdio, http (got "sse" in environment variable AppConfig__AI__McpServers__b__Transport)',
      ],
    });
  });

  it('refuses a server name containing "__", which would make mcp__{server}__{tool} ambiguous', async () => {
    await writeFile(join(cwd, 'servers.json'), JSON.stringify({ AppConfig: { AI: { McpServers: { my__server: { Transport: 'stdio', Command: 'x' } } } } }));
    expect(load({}, ['servers.json'])).toEqual({
      ok: false,
      problems: ['AppConfig:AI:McpServers:my__server: a server name must not contain "__" (tools are named mcp__{server}__{tool})'],
    });
  });

  it('shapes an http server with its headers only, and warns about the other transport\'s fields', () => {
    const result = load({
      AppConfig__AI__McpServers__remote__Transport: 'HTTP',
      AppConfig__AI__McpServers__remote__Url: 'https://mcp.example/mcp',
      AppConfig__AI__McpServers__remote__Headers__Authorization: 'Bearer x',
      AppConfig__AI__McpServers__remote__Command: 'leftover',
    });
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({
        mcpServers: { remote: { transport: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer x' } } },
      }),
      warnings: ['AppConfig:AI:McpServers:remote:Command: ignored because Transport is http'],
    });
  });
});
