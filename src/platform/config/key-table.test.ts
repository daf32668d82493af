import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from './index.js';
import type { KeyEntry } from './key-entry.js';
import { keyTable } from './key-table.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-key-table-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function loadEnv(variable: string, value: string): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, [variable]: value }, configFiles: [] });
}

async function loadJson(json: unknown): Promise<LoadConfigResult> {
  const name = `settings-${Math.random().toString(36).slice(2)}.json`;
  await writeFile(join(cwd, name), JSON.stringify(json));
  return loadConfig({ cwd, env: base, configFiles: [name] });
}

function problemOf(result: LoadConfigResult): string {
  if (result.ok || result.problems.length !== 1) throw new Error(`expected exactly one problem, got ${JSON.stringify(result)}`);
  return result.problems[0] ?? '';
}

describe('key table', () => {
  it('declares every key once, ignoring case', () => {
    const keys = keyTable.map((entry) => entry.key.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every key a default or marks it required, except map values', () => {
    const rows: readonly KeyEntry[] = keyTable;
    for (const entry of rows) {
      const isMapValue = entry.key.endsWith('}');
      expect(entry.default !== undefined || entry.required === true || isMapValue, entry.key).toBe(true);
    }
  });
});

describe('start-up ranges', () => {
  it.each([
    ['AppConfig__AI__BundleExecution__MaxEntryCount', '0', 'AppConfig:AI:BundleExecution:MaxEntryCount: must be an integer ≥ 1'],
    ['AppConfig__AI__BundleExecution__MaxArchiveBytes', '1.5', 'AppConfig:AI:BundleExecution:MaxArchiveBytes: must be an integer ≥ 1'],
    ['AppConfig__AI__Evaluation__MaxDatasetBytes', '-5', 'AppConfig:AI:Evaluation:MaxDatasetBytes: must be an integer ≥ 1'],
    ['AppConfig__AI__RateLimits__evals-read__PermitsPerMinute', '1000001', 'AppConfig:AI:RateLimits:evals-read:PermitsPerMinute: must be an integer from 1 to 1000000'],
    ['AppConfig__AI__Workflows__MaxSteps', '10001', 'AppConfig:AI:Workflows:MaxSteps: must be an integer from 1 to 10000'],
    ['AppConfig__AI__Evaluation__MaxParallelism', '100001', 'AppConfig:AI:Evaluation:MaxParallelism: must be an integer from 1 to 100000'],
    ['AppConfig__AI__DirectToolInvocation__MaxConcurrentPerCaller', '0', 'AppConfig:AI:DirectToolInvocation:MaxConcurrentPerCaller: must be an integer from 1 to 100000'],
    ['AppConfig__AI__BundleExecution__MaxCompressionRatio', '1e400', 'AppConfig:AI:BundleExecution:MaxCompressionRatio: must be a number ≥ 1'],
    ['AppConfig__AI__BundleExecution__MaxCompressionRatio', '0.5', 'AppConfig:AI:BundleExecution:MaxCompressionRatio: must be a number ≥ 1'],
    ['AppConfig__AI__ChatModel__TimeoutSeconds', '0', 'AppConfig:AI:ChatModel:TimeoutSeconds: must be a number > 0'],
    ['AppConfig__AI__ChatModel__Temperature', '2.5', 'AppConfig:AI:ChatModel:Temperature: must be a number from 0 to 2'],
    ['AppConfig__AI__ChatModel__Pricing__InputPerMillionTokens', '-1', 'AppConfig:AI:ChatModel:Pricing:InputPerMillionTokens: must be a number ≥ 0'],
    ['AppConfig__AI__ChatModel__Provider', 'Gemini', 'AppConfig:AI:ChatModel:Provider: must be one of OpenAI, AzureOpenAI, Anthropic, Scripted'],
    ['AppConfig__AI__BundleExecution__HandleTtl', '30', 'AppConfig:AI:BundleExecution:HandleTtl: must be a positive TimeSpan such as 00:30:00 or 1.00:00:00'],
    ['AppConfig__AI__Conversations__Ttl', '00:00:00', 'AppConfig:AI:Conversations:Ttl: must be a positive TimeSpan such as 00:30:00 or 1.00:00:00'],
    ['AppConfig__Logging__Level', 'verbose', 'AppConfig:Logging:Level: must be one of fatal, error, warn, info, debug, trace, silent'],
  ])('refuses %s=%s', (variable, value, message) => {
    expect(problemOf(loadEnv(variable, value))).toBe(`${message} (got ${JSON.stringify(value)} in environment variable ${variable})`);
  });

  it('accepts the inclusive maxima', () => {
    const result = loadConfig({
      cwd,
      env: {
        ...base,
        'AppConfig__AI__RateLimits__evals-read__PermitsPerMinute': '1000000',
        AppConfig__AI__Workflows__MaxSteps: '10000',
        AppConfig__AI__Workflows__MaxConcurrentProgressStreams: '100000',
      },
      configFiles: [],
    });
    expect(result).toMatchObject({
      ok: true,
      config: { rateLimits: { 'evals-read': 1_000_000 }, workflows: { maxSteps: 10_000, maxConcurrentProgressStreams: 100_000 } },
    });
  });

  it('reads a provider name in any case as its canonical spelling', () => {
    expect(loadEnv('AppConfig__AI__ChatModel__Provider', 'azureopenai')).toMatchObject({ ok: true, config: { chatModel: { provider: 'AzureOpenAI' } } });
  });
});

describe('value types in settings files', () => {
  it('refuses a value of the wrong JSON type, naming the key', async () => {
    const result = await loadJson({
      AppConfig: {
        AI: {
          BundleExecution: { Enabled: 'on', HandleTtl: 1800, Auth: { TenantId: 42 } },
          Evaluation: { DatasetRoots: 'single-root' },
          Tools: { HttpFetch: { AllowedHosts: ['ok.example', 7] } },
          Workflows: 5,
          Conversations: { MaxHistoryMessages: { Value: 5 } },
        },
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.replace(/ \((got|in) .*\)$/, ''))).toEqual([
      'AppConfig:AI:Workflows: must be a section of keys, not a value',
      'AppConfig:AI:Conversations:MaxHistoryMessages: must be a value, not a section',
      'AppConfig:AI:BundleExecution:Enabled: must be true or false',
      'AppConfig:AI:BundleExecution:HandleTtl: must be a positive TimeSpan such as 00:30:00 or 1.00:00:00',
      'AppConfig:AI:BundleExecution:Auth:TenantId: must be a string',
      'AppConfig:AI:Tools:HttpFetch:AllowedHosts: item 1 must be a string',
      'AppConfig:AI:Evaluation:DatasetRoots: must be an array of path (JSON array, or items by index)',
    ]);
  });

  it('refuses an AllowedHosts entry that is not a bare host, beside the other problems, under the full key', async () => {
    const result = await loadJson({
      AppConfig: {
        AI: {
          DirectToolInvocation: { MaxRequestBytes: 0 },
          Tools: { HttpFetch: { AllowedHosts: ['ok.example', 'http://x.example:80/'] } },
        },
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.replace(/ \((got|in) .*\)$/, ''))).toEqual([
      'AppConfig:AI:DirectToolInvocation:MaxRequestBytes: must be an integer ≥ 1',
      'AppConfig:AI:Tools:HttpFetch:AllowedHosts: item 1 must be a bare host name or IP address (no scheme, port, path or wildcard)',
    ]);
    for (const bad of ['*.example.com', 'a.example:8080', 'user@a.example', 'a.example/path', ' ']) {
      const one = await loadJson({ AppConfig: { AI: { Tools: { HttpFetch: { AllowedHosts: [bad] } } } } });
      expect(one.ok, bad).toBe(false);
    }
    const good = await loadJson({ AppConfig: { AI: { Tools: { HttpFetch: { AllowedHosts: ['API.Example.com', '127.0.0.1', '::1', '[fe80::1]', 'localhost.'] } } } } });
    expect(good).toMatchObject({ ok: true, config: { tools: { httpFetch: { allowedHosts: ['API.Example.com', '127.0.0.1', '::1', '[fe80::1]', 'localhost.'] } } } });
  });

  it('accepts JSON booleans and numbers as well as their text', async () => {
    const result = await loadJson({ AppConfig: { AI: { BundleExecution: { Enabled: 'True', MaxEntryCount: '12' }, DirectToolInvocation: { Enabled: true } } } });
    expect(result).toMatchObject({ ok: true, config: { bundleExecution: { enabled: true, maxEntryCount: 12 }, directToolInvocation: { enabled: true } } });
  });

  it('lets a later layer reset an optional value with null', async () => {
    await writeFile(join(cwd, 'with-key.json'), JSON.stringify({ AppConfig: { AI: { ChatModel: { ApiKey: 'k', Temperature: 0.2 } } } }));
    await writeFile(join(cwd, 'reset.json'), JSON.stringify({ AppConfig: { AI: { ChatModel: { ApiKey: null, Temperature: null } } } }));
    const result = loadConfig({ cwd, env: base, configFiles: ['with-key.json', 'reset.json'] });
    expect(result).toMatchObject({ ok: true, config: { chatModel: { apiKey: null, temperature: null } } });
  });
});
