import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvLayer } from './env-layer.js';
import { loadConfig, type AppConfig, type LoadConfigResult } from './index.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-env-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string | undefined>): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, ...env }, configFiles: [] });
}

function loaded(env: Record<string, string | undefined>): AppConfig {
  const result = load(env);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

describe('environment variable layer', () => {
  it('maps __ to the : key separator', () => {
    expect(loaded({ AppConfig__AI__BundleExecution__Enabled: 'true' }).bundleExecution.enabled).toBe(true);
    expect(loaded({ AppConfig__Http__RequestTimeout: '00:02:00' }).http.requestTimeoutMs).toBe(120_000);
  });

  it('builds arrays from items by index', () => {
    const config = loaded({
      AppConfig__AI__Evaluation__DatasetRoots__1: '/data/b',
      AppConfig__AI__Evaluation__DatasetRoots__0: '/data/a',
      AppConfig__AI__Evaluation__Enabled: 'true',
    });
    expect(config.evaluation.datasetRoots).toEqual(['/data/a', '/data/b']);
  });

  it('builds arrays inside map entries', () => {
    const config = loaded({
      AppConfig__AI__McpServers__files__Transport: 'stdio',
      AppConfig__AI__McpServers__files__Command: 'npx',
      AppConfig__AI__McpServers__files__Args__0: '-y',
      AppConfig__AI__McpServers__files__Args__1: '@modelcontextprotocol/server-filesystem',
      AppConfig__AI__McpServers__files__Env__LOG_LEVEL: 'debug',
    });
    expect(config.mcpServers.files).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem'],
      env: { LOG_LEVEL: 'debug' },
    });
  });

  it('refuses a gap in array indexes', () => {
    expect(load({ AppConfig__AI__Skills__DiscoveryPaths__0: '/a', AppConfig__AI__Skills__DiscoveryPaths__2: '/c' })).toEqual({
      ok: false,
      problems: [
        'AppConfig:AI:Skills:DiscoveryPaths: array items must be numbered 0, 1, 2, … without gaps (found 0, 2) (in environment variable AppConfig__AI__Skills__DiscoveryPaths__0, environment variable AppConfig__AI__Skills__DiscoveryPaths__2)',
      ],
    });
  });

  it('reports a gap in a list that a rule reads without stopping there (the list stands at its default meanwhile)', () => {
    const variable = 'AppConfig__AI__BundleExecution__Envelopes__Default__AllowedMcpServers__1';
    expect(load({ [variable]: 'search' })).toEqual({
      ok: false,
      problems: [
        `AppConfig:AI:BundleExecution:Envelopes:Default:AllowedMcpServers: array items must be numbered 0, 1, 2, … without gaps (found 1) (in environment variable ${variable})`,
      ],
    });
  });

  it('refuses a non-numeric or zero-padded index for an array key', () => {
    const result = load({ AppConfig__AI__Skills__DiscoveryPaths__first: '/a', AppConfig__AI__Agents__DiscoveryPaths__00: '/b' });
    expect(result).toMatchObject({
      ok: false,
      problems: [
        expect.stringMatching(/^AppConfig:AI:Agents:DiscoveryPaths:00: unknown key; array items are numbered 0, 1, 2/),
        expect.stringMatching(/^AppConfig:AI:Skills:DiscoveryPaths:first: unknown key; array items are numbered 0, 1, 2/),
      ],
    });
  });

  it('reads booleans in any case and numbers from their decimal text', () => {
    const config = loaded({
      AppConfig__AI__DirectToolInvocation__Enabled: 'TRUE',
      AppConfig__AI__BundleExecution__Enabled: 'False',
      AppConfig__AI__DirectToolInvocation__DefaultTimeoutSeconds: '2.5',
      AppConfig__AI__Conversations__MaxLifetimeTokens: '1e6',
    });
    expect(config.directToolInvocation).toMatchObject({ enabled: true, defaultTimeoutSeconds: 2.5 });
    expect(config.bundleExecution.enabled).toBe(false);
    expect(config.conversations.maxLifetimeTokens).toBe(1_000_000);
  });

  it('refuses text that is not a boolean or a number where one is expected', () => {
    const result = load({ AppConfig__AI__BundleExecution__Enabled: 'yes', AppConfig__AI__Evaluation__MaxRepeats: '0x10' });
    expect(result).toMatchObject({
      ok: false,
      problems: [
        'AppConfig:AI:BundleExecution:Enabled: must be true or false (got "yes" in environment variable AppConfig__AI__BundleExecution__Enabled)',
        'AppConfig:AI:Evaluation:MaxRepeats: must be an integer ≥ 1 (got "0x10" in environment variable AppConfig__AI__Evaluation__MaxRepeats)',
      ],
    });
  });

  it('accepts the AppConfig prefix in any case', () => {
    expect(loaded({ APPCONFIG__AI__BUNDLEEXECUTION__ENABLED: 'true' }).bundleExecution.enabled).toBe(true);
  });

  it('ignores variables without the AppConfig__ prefix', () => {
    const layer = readEnvLayer({ PATH: '/bin', AppConfigX__AI: '1', AppConfig_AI: '1', AI__BundleExecution__Enabled: 'true' });
    expect(layer).toEqual({ kind: 'section', source: 'environment variables', children: new Map() });
  });

  it('ignores variables whose value is undefined', () => {
    expect(loaded({ AppConfig__AI__BundleExecution__Enabled: undefined }).bundleExecution.enabled).toBe(false);
  });
});
