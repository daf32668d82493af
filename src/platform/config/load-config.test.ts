import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig, type LoadConfigOptions } from './index.js';
import { TRACING_OFF } from './otel-environment.js';
import { NO_BUDGET } from '../envelope/index.js';

const anonymousDevelopment = {
  PORTCULLIS_ENVIRONMENT: 'Development',
  AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true',
};

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-config-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(options: Partial<LoadConfigOptions> = {}): ReturnType<typeof loadConfig> {
  return loadConfig({ cwd, env: anonymousDevelopment, configFiles: [], ...options });
}

function loaded(options: Partial<LoadConfigOptions> = {}): AppConfig {
  const result = load(options);
  if (!result.ok) throw new Error(`expected a valid configuration, got:\n${result.problems.join('\n')}`);
  return result.config;
}

async function inDirectory(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(cwd, 'layers-'));
  for (const [name, content] of Object.entries(files)) {
    await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('loadConfig defaults', () => {
  it('fills every key from SPEC.md and DESIGN.md defaults', () => {
    const grant = { allowedTools: [], allowedMcpServers: [], autonomyCeiling: 'Restricted', autoApproveUpTo: 'None', budget: { maxUsdPerRun: null, maxUsdPerDay: null, maxUsdPerMonth: null } } as const;
    const expected: AppConfig = {
      environment: 'Development',
      bundleExecution: {
        enabled: false,
        tempRoot: '',
        maxArchiveBytes: 10_485_760,
        maxEntryCount: 2000,
        maxTotalUncompressedBytes: 52_428_800,
        maxCompressionRatio: 100,
        handleTtlMs: 1_800_000,
        runRecordTtlMs: 1_800_000,
        streamReservationTtlMs: 300_000,
        maxConcurrentStreamsPerCaller: 4,
        maxConcurrentDispatchedBundleRuns: 4,
        maxActiveBundleRunsPerOwner: 10,
        cleanupIntervalMs: 60_000,
        streamFrameCeilingBytes: 65_536,
        auth: {
          tenantId: null,
          clientId: null,
          instance: 'https://login.microsoftonline.com/',
          requireHttpsMetadata: true,
          validIssuers: [],
          allowAnonymous: true,
          anonymousRoles: [],
          jwksRefreshCooldownMs: 30_000,
          refusalLogIntervalMs: 60_000,
          maxTokenLifetimeMs: 365 * 86_400_000,
        },
        envelopes: { default: grant, bySubject: {}, byRole: {} },
      },
      directToolInvocation: { enabled: false, maxRequestBytes: 65_536, defaultTimeoutSeconds: 30, maxConcurrentPerCaller: 4, maxOutputBytes: 65_536 },
      mcpGateway: { enabled: false },
      a2a: { enabled: false },
      conversations: {
        maxHistoryMessages: 50,
        maxHistoryBytes: 524_288,
        maxToolResultBytes: 1_048_576,
        maxLifetimeTokens: 200_000,
        maxModelCallsPerTurn: 25,
        ttlMs: 86_400_000,
      },
      chatModel: {
        provider: 'Scripted',
        endpoint: null,
        apiKey: null,
        model: null,
        apiVersion: null,
        timeoutSeconds: 120,
        maxOutputTokens: 4096,
        maxPromptBytes: 2_097_152,
        temperature: null,
        pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0 },
        scriptPath: null,
      },
      mcpServers: {},
      tools: {
        httpFetch: { allowedHosts: [], maxResponseBytes: 1_048_576, timeoutSeconds: 10 },
        memory: { maxBytesPerOwner: 262_144, maxOwners: 1000 },
      },
      retrieval: { indexes: {} },
      agents: { discoveryPaths: [] },
      skills: { discoveryPaths: [] },
      workflows: {
        maxActiveRunsPerOwner: 5,
        maxConcurrentRuns: 32,
        maxConcurrentProgressStreams: 64,
        maxProgressStreamsPerOwner: 4,
        maxDefinitionsPerOwner: 200,
        maxSteps: 500,
        maxRenderedTemplateBytes: 1_048_576,
        maxStepOutputBytes: 1_048_576,
        maxRunOutputBytes: 4_194_304,
        watcherBufferFrames: 256,
        runRecordTtlMs: 1_800_000,
      },
      approvals: {
        enabled: false,
        approverRoles: ['Harness.Approvals.Decide'],
        allowSelfApproval: true,
        defaultTimeoutMs: 86_400_000,
        escalateAfterMs: null,
        escalationRoles: [],
      },
      policies: { files: [], mode: 'Enforce' },
      evaluation: {
        enabled: false,
        datasetRoots: [],
        maxDatasetsPerRun: 10,
        maxCaseExecutionsPerRun: 500,
        maxDatasetBytes: 5_242_880,
        maxAssertionsPerCase: 50,
        maxRepeats: 50,
        maxParallelism: 128,
        maxActiveRunsPerOwner: 2,
        maxConcurrentRuns: 4,
        reportsRoot: null,
      },
      schedules: { enabled: true, minIntervalSeconds: 60, fireRetentionMs: 7 * 24 * 3_600_000 },
      webhooks: { allowedHosts: [], maxAttempts: 7, pollIntervalMs: 1_000 },
      rateLimits: {
        'bundles-register': 10,
        'bundles-runs': 60,
        'bundles-poll': 60,
        'bundles-delete': 60,
        'tools-read': 120,
        'tools-invoke': 60,
        'workflows-write': 30,
        'workflows-read': 120,
        'evals-write': 10,
        'evals-read': 120,
        'schedules-write': 30,
        'schedules-read': 120,
        'webhooks-write': 30,
        'webhooks-read': 120,
      },
      http: { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnections: 1024, maxConnectionsPerAddress: 64 },
      idempotency: { ttlMs: 86_400_000 },
      logging: { level: 'info', maxStringLength: 8192 },
      storage: { provider: 'Memory', postgres: { connectionString: null, schema: 'portcullis', maxConnections: 10 }, runLeaseTtlMs: 15_000 },
      console: { enabled: true, clientId: null, scope: null },
      observability: { metrics: { enabled: true }, tracing: TRACING_OFF },
    };
    expect(loaded()).toEqual(expected);
  });

  it('defaults the environment to Production, where the chat model provider is unset', () => {
    const config = loaded({ env: { AppConfig__AI__BundleExecution__Auth__TenantId: 't', AppConfig__AI__BundleExecution__Auth__ClientId: 'c' } });
    expect(config.environment).toBe('Production');
    expect(config.chatModel.provider).toBeNull();
  });

  it('returns no warnings for a clean configuration', () => {
    expect(load()).toMatchObject({ ok: true, warnings: [] });
  });

  it('warns when PORTCULLIS_ENVIRONMENT names an environment that has no settings file (a typo loads nothing)', async () => {
    const dir = await inDirectory({ 'appsettings.Development.json': {} });
    const result = load({ cwd: dir, env: { ...anonymousDevelopment, PORTCULLIS_ENVIRONMENT: 'development' } });
    expect(result.ok && result.warnings).toEqual([
      `PORTCULLIS_ENVIRONMENT is 'development' but there is no appsettings.development.json in ${dir} (found: appsettings.Development.json); environment names are case-sensitive file names, so check its spelling`,
    ]);
    expect(load({ cwd: dir })).toMatchObject({ ok: true, warnings: [] });
  });
});

describe('loadConfig layers', () => {
  it('lets each of the five layers override the ones before it', async () => {
    const keys = ['MaxEntryCount', 'MaxArchiveBytes', 'MaxTotalUncompressedBytes', 'StreamFrameCeilingBytes', 'MaxCompressionRatio'];
    // Layer n (1 = appsettings.json … 5 = environment) sets keys n-1 onwards to n, so key i ends at i + 1.
    const layer = (n: number): unknown => ({
      AppConfig: { AI: { BundleExecution: Object.fromEntries(keys.slice(n - 1).map((key) => [key, n])) } },
    });
    const dir = await inDirectory({
      'appsettings.json': layer(1),
      'appsettings.Staging.json': layer(2),
      'first.json': layer(3),
      'second.json': layer(4),
    });
    const config = loaded({
      cwd: dir,
      configFiles: ['first.json', 'second.json'],
      env: {
        PORTCULLIS_ENVIRONMENT: 'Staging',
        AppConfig__AI__BundleExecution__Auth__TenantId: 'tenant',
        AppConfig__AI__BundleExecution__Auth__ClientId: 'client',
        AppConfig__AI__BundleExecution__MaxCompressionRatio: '5',
      },
    });
    expect(config.bundleExecution).toMatchObject({
      maxEntryCount: 1,
      maxArchiveBytes: 2,
      maxTotalUncompressedBytes: 3,
      streamFrameCeilingBytes: 4,
      maxCompressionRatio: 5,
    });
  });

  it('reads the --config files in the order given', async () => {
    const dir = await inDirectory({
      'a.json': { AppConfig: { AI: { Conversations: { MaxHistoryMessages: 1 } } } },
      'b.json': { AppConfig: { AI: { Conversations: { MaxHistoryMessages: 2 } } } },
    });
    expect(loaded({ cwd: dir, configFiles: ['a.json', 'b.json'] }).conversations.maxHistoryMessages).toBe(2);
    expect(loaded({ cwd: dir, configFiles: ['b.json', 'a.json'] }).conversations.maxHistoryMessages).toBe(1);
  });

  it('picks appsettings.{Environment}.json by the environment name and ignores other environments', async () => {
    const dir = await inDirectory({
      'appsettings.Development.json': { AppConfig: { AI: { Workflows: { MaxSteps: 7 } } } },
      'appsettings.Production.json': { AppConfig: { AI: { Workflows: { MaxSteps: 9 } } } },
    });
    expect(loaded({ cwd: dir }).workflows.maxSteps).toBe(7);
  });

  it('starts without an appsettings.json', () => {
    expect(load().ok).toBe(true);
  });

  it('refuses a --config file that does not exist, naming it', () => {
    expect(load({ configFiles: ['missing.json'] })).toEqual({
      ok: false,
      problems: [`--config missing.json: file not found (${join(cwd, 'missing.json')})`],
    });
  });

  it('refuses settings files that are not valid JSON objects, naming each', async () => {
    const dir = await inDirectory({ 'appsettings.json': '{ "AppConfig": ', 'list.json': '[1, 2]' });
    const result = load({ cwd: dir, configFiles: ['list.json'] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(2);
    expect(result.problems[0]).toMatch(/^appsettings\.json: invalid JSON/);
    expect(result.problems[1]).toBe('--config list.json: must contain a JSON object');
  });

  it('accepts comments and trailing commas in settings files, as ASP.NET does', async () => {
    const dir = await inDirectory({
      'appsettings.json': '{\n  // toggles\n  "AppConfig": { "AI": { "BundleExecution": { "Enabled": true, } } },\n}',
    });
    expect(loaded({ cwd: dir }).bundleExecution.enabled).toBe(true);
  });

  it('merges arrays across layers by index, as ASP.NET does, and checks gaps only after merging', async () => {
    const dir = await inDirectory({
      'appsettings.json': { AppConfig: { AI: { Evaluation: { DatasetRoots: ['/data/shipped'] } } } },
    });
    const env = { ...anonymousDevelopment, AppConfig__AI__Evaluation__DatasetRoots__1: '/data/mine' };
    expect(loaded({ cwd: dir, env }).evaluation.datasetRoots).toEqual(['/data/shipped', '/data/mine']);
    const over = { ...anonymousDevelopment, AppConfig__AI__Evaluation__DatasetRoots__0: '/data/instead' };
    expect(loaded({ cwd: dir, env: over }).evaluation.datasetRoots).toEqual(['/data/instead']);
    const gap = { ...anonymousDevelopment, AppConfig__AI__Evaluation__DatasetRoots__2: '/data/far' };
    expect(load({ cwd: dir, env: gap })).toEqual({
      ok: false,
      problems: [
        'AppConfig:AI:Evaluation:DatasetRoots: array items must be numbered 0, 1, 2, … without gaps (found 0, 2) (in appsettings.json, environment variable AppConfig__AI__Evaluation__DatasetRoots__2)',
      ],
    });
  });

  it('keeps the earlier items a shorter later array leaves, as ASP.NET does, and warns about them', async () => {
    const dir = await inDirectory({
      'appsettings.json': { AppConfig: { AI: { Tools: { HttpFetch: { AllowedHosts: ['a.example', 'b.example', 'c.example'] } } } } },
      'narrow.json': { AppConfig: { AI: { Tools: { HttpFetch: { AllowedHosts: ['z.example'] } } } } },
    });
    const result = load({ cwd: dir, configFiles: ['narrow.json'] });
    expect(result).toMatchObject({ ok: true, config: { tools: { httpFetch: { allowedHosts: ['z.example', 'b.example', 'c.example'] } } } });
    expect(result.ok && result.warnings).toEqual([
      'AppConfig:AI:Tools:HttpFetch:AllowedHosts: --config narrow.json sets 1 item(s) but items 1–2 from an earlier layer remain (arrays merge by index, as in ASP.NET; set those indexes to override them)',
    ]);
  });

  it('merges map entries across layers, key by key', async () => {
    const dir = await inDirectory({
      'appsettings.json': { AppConfig: { AI: { Retrieval: { Indexes: { handbook: { Root: 'docs' } } } } } },
    });
    const env = { ...anonymousDevelopment, AppConfig__AI__Retrieval__Indexes__notes__Root: '/srv/notes' };
    expect(loaded({ cwd: dir, env }).retrieval.indexes).toEqual({
      handbook: { root: join(dir, 'docs') },
      notes: { root: '/srv/notes' },
    });
  });

  it('reads flat colon-separated keys in settings files', async () => {
    const dir = await inDirectory({ 'flat.json': { 'AppConfig:AI:Evaluation:MaxRepeats': 3 } });
    expect(loaded({ cwd: dir, configFiles: ['flat.json'] }).evaluation.maxRepeats).toBe(3);
  });

  it('ignores sections outside AppConfig, such as ASP.NET Logging', async () => {
    const dir = await inDirectory({ 'appsettings.json': { Logging: { LogLevel: { Default: 'Warning' } }, AllowedHosts: '*' } });
    expect(load({ cwd: dir }).ok).toBe(true);
  });
});

describe('loadConfig keys', () => {
  it('matches fixed key segments in any case but keeps map keys as written', async () => {
    const dir = await inDirectory({
      'appsettings.json': {
        appconfig: {
          ai: {
            BUNDLEEXECUTION: {
              envelopes: {
                bysubject: { 'Alice-Id': { allowedtools: ['clock'], autonomyceiling: 'autonomous' } },
                BYROLE: { 'Harness.Tools.Invoke': { ALLOWEDTOOLS: ['json'] } },
              },
            },
          },
        },
      },
    });
    const { envelopes } = loaded({ cwd: dir }).bundleExecution;
    expect(Object.keys(envelopes.bySubject)).toEqual(['Alice-Id']);
    expect(envelopes.bySubject['Alice-Id']).toEqual({ allowedTools: ['clock'], allowedMcpServers: [], autonomyCeiling: 'Autonomous', autoApproveUpTo: 'None', budget: NO_BUDGET });
    expect(Object.keys(envelopes.byRole)).toEqual(['Harness.Tools.Invoke']);
  });

  it('treats map keys that differ only in case as different entries', () => {
    const env = {
      ...anonymousDevelopment,
      AppConfig__AI__BundleExecution__Envelopes__BySubject__alice__AllowedTools__0: 'clock',
      AppConfig__AI__BundleExecution__Envelopes__BySubject__Alice__AllowedTools__0: 'json',
    };
    const { bySubject } = loaded({ env }).bundleExecution.envelopes;
    expect(bySubject.alice?.allowedTools).toEqual(['clock']);
    expect(bySubject.Alice?.allowedTools).toEqual(['json']);
  });

  it('gives configuration maps no prototype, so a lookup never finds inherited members', () => {
    const { bySubject } = loaded().bundleExecution.envelopes;
    expect(bySubject.constructor).toBeUndefined();
    expect('toString' in bySubject).toBe(false);
  });

  it('keeps __proto__ written in a settings file as an ordinary map key', async () => {
    const dir = await inDirectory({
      'appsettings.json': '{"AppConfig":{"AI":{"BundleExecution":{"Envelopes":{"BySubject":{"__proto__":{"AllowedTools":["clock"]}}}}}}}',
    });
    const { bySubject } = loaded({ cwd: dir }).bundleExecution.envelopes;
    expect(Object.keys(bySubject)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(bySubject)).toBeNull();
    expect(({} as Record<string, unknown>).allowedTools).toBeUndefined();
  });

  it('refuses unknown keys under AppConfig, naming the full key and where it came from', () => {
    const env = {
      ...anonymousDevelopment,
      AppConfig__AI__BundleExecution__MaxEntryCont: '5',
      AppConfig__AI__BundleExecution__Envelopes__Default__AllowedTool__0: 'clock',
      AppConfig__Nonsense: 'x',
    };
    const result = load({ env });
    expect(result).toEqual({
      ok: false,
      problems: [
        'AppConfig:AI:BundleExecution:Envelopes:Default:AllowedTool: unknown key (in environment variable AppConfig__AI__BundleExecution__Envelopes__Default__AllowedTool__0)',
        'AppConfig:AI:BundleExecution:MaxEntryCont: unknown key (in environment variable AppConfig__AI__BundleExecution__MaxEntryCont)',
        'AppConfig:Nonsense: unknown key (in environment variable AppConfig__Nonsense)',
      ],
    });
  });

  it('refuses a rate-limit policy name that does not exist', () => {
    const result = load({ env: { ...anonymousDevelopment, AppConfig__AI__RateLimits__bundles_register__PermitsPerMinute: '5' } });
    expect(result).toMatchObject({ ok: false, problems: [expect.stringMatching(/^AppConfig:AI:RateLimits:bundles_register: unknown key/)] });
  });

  it('reads rate-limit policies case-insensitively', () => {
    const env = { ...anonymousDevelopment, 'APPCONFIG__AI__RATELIMITS__TOOLS-INVOKE__PERMITSPERMINUTE': '7' };
    expect(loaded({ env }).rateLimits['tools-invoke']).toBe(7);
  });

  it('resolves relative paths against the working directory', async () => {
    const dir = await inDirectory({
      'appsettings.json': {
        AppConfig: { AI: { BundleExecution: { TempRoot: 'staging' }, Agents: { DiscoveryPaths: ['agents', '/abs/agents'] } } },
      },
    });
    const config = loaded({ cwd: dir });
    expect(config.bundleExecution.tempRoot).toBe(join(dir, 'staging'));
    expect(config.agents.discoveryPaths).toEqual([join(dir, 'agents'), '/abs/agents']);
  });

  it('treats an emptied environment variable as unset for optional strings', () => {
    const env = { ...anonymousDevelopment, AppConfig__AI__BundleExecution__Auth__TenantId: '', AppConfig__AI__BundleExecution__Auth__ClientId: ' ' };
    expect(loaded({ env }).bundleExecution.auth).toMatchObject({ tenantId: null, clientId: null });
  });

  it('adds the trailing slash the authority needs to the identity Instance', () => {
    const env = { ...anonymousDevelopment, AppConfig__AI__BundleExecution__Auth__Instance: 'https://idp.example/base' };
    expect(loaded({ env }).bundleExecution.auth.instance).toBe('https://idp.example/base/');
  });
});

describe('loadConfig result', () => {
  it('is deeply frozen: assigning to any level throws', () => {
    const config = loaded();
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { environment: string }).environment = 'Production';
    }).toThrow(TypeError);
    expect(() => {
      (config.bundleExecution.auth as { allowAnonymous: boolean }).allowAnonymous = false;
    }).toThrow(TypeError);
    expect(() => {
      (config.bundleExecution.envelopes.default.allowedTools as string[]).push('clock');
    }).toThrow(TypeError);
    expect(() => {
      (config.rateLimits as Record<string, number>)['tools-read'] = 1;
    }).toThrow(TypeError);
  });

  it('reports every problem at once, from every layer and rule', async () => {
    const dir = await inDirectory({
      'appsettings.json': { AppConfig: { AI: { BundleExecution: { MaxEntryCount: 0 }, Workflows: { MaxSteps: 10_001 } } } },
    });
    const result = load({
      cwd: dir,
      configFiles: ['absent.json'],
      env: {
        AppConfig__AI__BundleExecution__Auth__TenantId: 'tenant-only',
        AppConfig__AI__Evaluation__Enabled: 'TRUE',
        'AppConfig__AI__RateLimits__tools-read__PermitsPerMinute': '1000001',
        AppConfig__AI__BundleExecution__Envelopes__Default__AutonomyCeiling: '2',
        AppConfig__AI__ChatModel__Provider: 'Gemini',
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      `--config absent.json: file not found (${join(dir, 'absent.json')})`,
      'AppConfig:AI:BundleExecution:MaxEntryCount: must be an integer ≥ 1 (got 0 in appsettings.json)',
      'AppConfig:AI:BundleExecution:Envelopes:Default:AutonomyCeiling: a numeric AutonomyCeiling is not allowed; use Restricted, Supervised or Autonomous (got "2" in environment variable AppConfig__AI__BundleExecution__Envelopes__Default__AutonomyCeiling)',
      'AppConfig:AI:ChatModel:Provider: must be one of OpenAI, AzureOpenAI, Anthropic, Scripted (got "Gemini" in environment variable AppConfig__AI__ChatModel__Provider)',
      'AppConfig:AI:Workflows:MaxSteps: must be an integer from 1 to 10000 (got 10001 in appsettings.json)',
      'AppConfig:AI:RateLimits:tools-read:PermitsPerMinute: must be an integer from 1 to 1000000 (got "1000001" in environment variable AppConfig__AI__RateLimits__tools-read__PermitsPerMinute)',
      'AppConfig:AI:BundleExecution:Auth:ClientId: must be set together with AppConfig:AI:BundleExecution:Auth:TenantId (set both or neither)',
      'AppConfig:AI:Evaluation:DatasetRoots: must list at least one directory when AppConfig:AI:Evaluation:Enabled is true',
    ]);
  });

  it('never echoes a secret value in a problem', () => {
    const env = { ...anonymousDevelopment, AppConfig__AI__ChatModel__ApiKey__0: 'sk-secret' };
    const result = load({ env });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).not.toContain('sk-secret');
  });
});

describe('loadConfig rules: storage (portcullis migrate)', () => {
  it('runs only the storage rules: no authentication refuses nothing, a Postgres provider without a connection string still does', () => {
    expect(load({ env: {} })).toMatchObject({ ok: false, problems: [expect.stringContaining('no authentication configured')] });
    expect(load({ env: {}, rules: 'storage' })).toMatchObject({ ok: true });
    expect(load({ env: { AppConfig__Storage__Provider: 'Postgres' }, rules: 'storage' })).toEqual({
      ok: false,
      problems: ['AppConfig:Storage:Postgres:ConnectionString: is required when AppConfig:Storage:Provider is Postgres'],
    });
  });
});

describe('loadConfig rules: mcp-servers (portcullis policy --config)', () => {
  it('runs only the rules the MCP servers need: no authentication refuses nothing, a stdio server without a command still does', () => {
    expect(load({ env: {}, rules: 'mcp-servers' })).toMatchObject({ ok: true });
    expect(load({ env: { AppConfig__AI__McpServers__crm__Transport: 'stdio' }, rules: 'mcp-servers' })).toEqual({
      ok: false,
      problems: ['AppConfig:AI:McpServers:crm:Command: is required when Transport is stdio'],
    });
  });
});
