// The typed, frozen configuration every module receives, computed from the key table (a key added
// there is a field here). Produced only by loadConfig. Durations are milliseconds, sizes bytes.
import type { ConfigFromKeys } from './config-from-keys.js';
import type { KeyRow } from './key-table.js';

export { logLevels, type LogLevel } from './keys/logging-keys.js';
export { rateLimitPolicies, type RateLimitPolicy } from './keys/rate-limit-keys.js';
export { storageProviders, type StorageProviderName } from './keys/storage-keys.js';

type SettledConfig = ConfigFromKeys<KeyRow, 'settled'>;

// Written out, not computed: after the rules passed, the transport decides a server's fields (shape-mcp-servers.ts).
export type McpServerConfig =
  | {
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly transport: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** How sampled traces are chosen (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
export interface TracingSampler {
  readonly kind: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
  readonly ratio: number;
}

// Written out, not computed: tracing is read from the standard OTEL_* variables, which are not keys.
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

export interface AppConfig extends Omit<SettledConfig, 'mcpServers' | 'observability'> {
  /** PORTCULLIS_ENVIRONMENT (host-settings.ts), not a key. */
  readonly environment: string;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** AppConfig:Observability (metrics) and the OTEL_* variables (tracing). */
  readonly observability: SettledConfig['observability'] & { readonly tracing: TracingConfig };
}

export type BundleExecutionConfig = AppConfig['bundleExecution'];
export type AuthConfig = BundleExecutionConfig['auth'];
export type EnvelopesConfig = BundleExecutionConfig['envelopes'];
export type EnvelopeGrantConfig = EnvelopesConfig['default'];
export type DirectToolInvocationConfig = AppConfig['directToolInvocation'];
export type ConversationsConfig = AppConfig['conversations'];
export type ChatModelConfig = AppConfig['chatModel'];
export type ChatModelProvider = NonNullable<ChatModelConfig['provider']>;
export type ToolsConfig = AppConfig['tools'];
export type WorkflowsConfig = AppConfig['workflows'];
export type ApprovalsConfig = AppConfig['approvals'];
export type PoliciesConfig = AppConfig['policies'];
export type EvaluationConfig = AppConfig['evaluation'];
export type SchedulesConfig = AppConfig['schedules'];
export type WebhooksConfig = AppConfig['webhooks'];
export type StorageConfig = AppConfig['storage'];
