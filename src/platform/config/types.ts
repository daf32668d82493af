// The typed, frozen configuration every module receives. Produced only by loadConfig (this folder is
// the only reader of process.env and appsettings files). Durations are milliseconds, sizes bytes.
import type { AutonomyTier } from '../envelope/autonomy.js';

export interface EnvelopeGrantConfig {
  readonly allowedTools: readonly string[];
  readonly allowedMcpServers: readonly string[];
  readonly autonomyCeiling: AutonomyTier;
}

export interface EnvelopesConfig {
  readonly default: EnvelopeGrantConfig;
  /** Keyed by subject id exactly as written in configuration. */
  readonly bySubject: Readonly<Record<string, EnvelopeGrantConfig>>;
  /** Keyed by role name exactly as written in configuration. */
  readonly byRole: Readonly<Record<string, EnvelopeGrantConfig>>;
}

export interface AuthConfig {
  readonly tenantId: string | null;
  readonly clientId: string | null;
  readonly instance: string;
  readonly requireHttpsMetadata: boolean;
  readonly validIssuers: readonly string[];
  readonly allowAnonymous: boolean;
  /** Roles the anonymous principal holds (anonymous mode only). */
  readonly anonymousRoles: readonly string[];
  readonly jwksRefreshCooldownMs: number;
  /** Refused tokens are logged at most once per reason per interval, with the count. */
  readonly refusalLogIntervalMs: number;
}

export interface BundleExecutionConfig {
  readonly enabled: boolean;
  readonly tempRoot: string;
  readonly maxArchiveBytes: number;
  readonly maxEntryCount: number;
  readonly maxTotalUncompressedBytes: number;
  readonly maxCompressionRatio: number;
  readonly handleTtlMs: number;
  readonly runRecordTtlMs: number;
  readonly streamReservationTtlMs: number;
  readonly maxConcurrentStreamsPerCaller: number;
  readonly maxConcurrentDispatchedBundleRuns: number;
  readonly maxActiveBundleRunsPerOwner: number;
  readonly cleanupIntervalMs: number;
  readonly streamFrameCeilingBytes: number;
  readonly auth: AuthConfig;
  readonly envelopes: EnvelopesConfig;
}

export interface DirectToolInvocationConfig {
  readonly enabled: boolean;
  readonly maxRequestBytes: number;
  readonly defaultTimeoutSeconds: number;
  readonly maxConcurrentPerCaller: number;
  readonly maxOutputBytes: number;
}

export interface ConversationsConfig {
  readonly maxHistoryMessages: number;
  /** UTF-8 bytes of history kept and replayed (the newest messages that fit). */
  readonly maxHistoryBytes: number;
  /** Largest tool result handed to the model; a larger one is replaced by a notice. */
  readonly maxToolResultBytes: number;
  readonly maxLifetimeTokens: number;
  readonly maxModelCallsPerTurn: number;
  readonly ttlMs: number;
}

export type ChatModelProvider = 'OpenAI' | 'AzureOpenAI' | 'Anthropic' | 'Scripted';

export interface ChatModelConfig {
  readonly provider: ChatModelProvider | null;
  readonly endpoint: string | null;
  readonly apiKey: string | null;
  readonly model: string | null;
  readonly apiVersion: string | null;
  readonly timeoutSeconds: number;
  readonly maxOutputTokens: number;
  /** UTF-8 bytes of one request's messages; a larger request is refused before it is sent. */
  readonly maxPromptBytes: number;
  readonly temperature: number | null;
  readonly pricing: { readonly inputPerMillionTokens: number; readonly outputPerMillionTokens: number };
  readonly scriptPath: string | null;
}

export type McpServerConfig =
  | {
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly transport: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export interface ToolsConfig {
  readonly httpFetch: {
    readonly allowedHosts: readonly string[];
    readonly maxResponseBytes: number;
    readonly timeoutSeconds: number;
  };
  readonly memory: {
    /** UTF-8 bytes of keys plus serialized values per owner. */
    readonly maxBytesPerOwner: number;
    /** Owners holding entries, host-wide. */
    readonly maxOwners: number;
  };
}

export interface WorkflowsConfig {
  readonly maxActiveRunsPerOwner: number;
  readonly maxConcurrentRuns: number;
  readonly maxConcurrentProgressStreams: number;
  readonly maxProgressStreamsPerOwner: number;
  readonly maxDefinitionsPerOwner: number;
  readonly maxSteps: number;
  /** UTF-8 bytes of one rendered template (or of a step's rendered ToolUse parameters). */
  readonly maxRenderedTemplateBytes: number;
  /** Largest output (as JSON) one step may keep. */
  readonly maxStepOutputBytes: number;
  /** Step outputs (as JSON) one run may keep in total. */
  readonly maxRunOutputBytes: number;
  readonly watcherBufferFrames: number;
  readonly runRecordTtlMs: number;
}

export interface EvaluationConfig {
  readonly enabled: boolean;
  readonly datasetRoots: readonly string[];
  readonly maxDatasetsPerRun: number;
  readonly maxCaseExecutionsPerRun: number;
  readonly maxDatasetBytes: number;
  readonly maxAssertionsPerCase: number;
  readonly maxRepeats: number;
  readonly maxParallelism: number;
  readonly maxActiveRunsPerOwner: number;
  readonly maxConcurrentRuns: number;
  readonly reportsRoot: string | null;
}

export const rateLimitPolicies = [
  'bundles-register',
  'bundles-runs',
  'bundles-poll',
  'bundles-delete',
  'tools-read',
  'tools-invoke',
  'workflows-write',
  'workflows-read',
  'evals-write',
  'evals-read',
] as const;
export type RateLimitPolicy = (typeof rateLimitPolicies)[number];

export const storageProviders = ['Memory', 'Postgres'] as const;
export type StorageProviderName = (typeof storageProviders)[number];

export interface StorageConfig {
  readonly provider: StorageProviderName;
  readonly postgres: {
    /** A libpq URI; a secret (never logged, never echoed in a problem message). Required with Postgres. */
    readonly connectionString: string | null;
    readonly schema: string;
    readonly maxConnections: number;
  };
  readonly runLeaseTtlMs: number;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** How sampled traces are chosen (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
export interface TracingSampler {
  readonly kind: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
  readonly ratio: number;
}

/** OpenTelemetry tracing, from the standard OTEL_* variables (otel-environment.ts); off without an endpoint. */
export interface TracingConfig {
  readonly enabled: boolean;
  /** The OTLP/HTTP traces URL (`…/v1/traces`), null when off. */
  readonly endpoint: string | null;
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Export request headers (often an API key): a secret, never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly compression: 'gzip' | 'none';
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: TracingSampler;
  readonly propagators: readonly ('tracecontext' | 'baggage')[];
  readonly batch: { readonly scheduleDelayMs: number; readonly exportTimeoutMs: number; readonly maxQueueSize: number; readonly maxExportBatchSize: number };
}

export interface AppConfig {
  readonly environment: string;
  readonly bundleExecution: BundleExecutionConfig;
  readonly directToolInvocation: DirectToolInvocationConfig;
  readonly conversations: ConversationsConfig;
  readonly chatModel: ChatModelConfig;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  readonly tools: ToolsConfig;
  readonly retrieval: { readonly indexes: Readonly<Record<string, { readonly root: string }>> };
  readonly agents: { readonly discoveryPaths: readonly string[] };
  readonly skills: { readonly discoveryPaths: readonly string[] };
  readonly workflows: WorkflowsConfig;
  readonly evaluation: EvaluationConfig;
  /** Permits per minute, per caller, for each policy. */
  readonly rateLimits: Readonly<Record<RateLimitPolicy, number>>;
  readonly http: {
    /** Whole-request receive timeout (uploads included; streams exempt). */
    readonly requestTimeoutMs: number;
    /** Time to receive the request line and headers. */
    readonly headersTimeoutMs: number;
    /** Idle time a keep-alive connection is kept between requests. */
    readonly keepAliveTimeoutMs: number;
    /** Open connections, host-wide. */
    readonly maxConnections: number;
    /** Open connections per remote address. */
    readonly maxConnectionsPerAddress: number;
  };
  readonly logging: {
    /** Minimum level written to the log (AppConfig:Logging:Level). */
    readonly level: LogLevel;
    /** Longest string a log line carries (AppConfig:Logging:MaxStringLength). */
    readonly maxStringLength: number;
  };
  /** AppConfig:Storage (DESIGN.md §11). */
  readonly storage: StorageConfig;
  /** The web console at /console (AppConfig:Console). */
  readonly console: {
    readonly enabled: boolean;
    /** null: Auth:ClientId. */
    readonly clientId: string | null;
    /** null: `openid profile api://{ClientId}/.default`. */
    readonly scope: string | null;
  };
  /** AppConfig:Observability (metrics) and the OTEL_* variables (tracing). */
  readonly observability: {
    readonly metrics: { readonly enabled: boolean };
    readonly tracing: TracingConfig;
  };
}
