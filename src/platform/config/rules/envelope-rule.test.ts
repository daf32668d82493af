import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };
const ROLE = 'AppConfig:AI:BundleExecution:Envelopes:ByRole:ops';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-envelope-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, ...env }, configFiles: [] });
}

describe('envelope warnings', () => {
  it('warns that servers granted without any tools are inert', () => {
    const result = load({
      AppConfig__AI__McpServers__files__Transport: 'stdio',
      AppConfig__AI__McpServers__files__Command: 'x',
      AppConfig__AI__BundleExecution__Envelopes__ByRole__ops__AllowedMcpServers__0: 'files',
    });
    expect(result).toMatchObject({
      ok: true,
      warnings: [`${ROLE}:AllowedMcpServers: has no effect while AllowedTools is empty (every call is denied)`],
    });
  });

  it('warns about a granted server that no McpServers entry defines', () => {
    const result = load({
      AppConfig__AI__BundleExecution__Envelopes__ByRole__ops__AllowedMcpServers__0: 'ghost',
      AppConfig__AI__BundleExecution__Envelopes__ByRole__ops__AllowedTools__0: 'mcp__ghost',
    });
    expect(result).toMatchObject({
      ok: true,
      warnings: [`${ROLE}:AllowedMcpServers: names "ghost", which no AppConfig:AI:McpServers entry defines`],
    });
  });
});
