// The lines `portcullis serve` prints once it listens: what an operator needs to see at a glance —
// which surfaces are on, how callers are authenticated (a loud line when nobody is), which model and
// MCP servers are configured (whether each connected, and on which protocol revision), where datasets
// come from, which storage holds the state, and where the reference, the MCP gateway, the console and
// the metrics are. Names and URLs from the
// configuration only: never a key, a connection string, a header value or an MCP server's command.
import type { AppConfig } from '../platform/config/index.js';

export const ANONYMOUS_WARNING =
  'WARNING: anonymous mode is on: no bearer token is checked and every caller is the same principal (AppConfig:AI:BundleExecution:Auth:AllowAnonymous); never expose this instance';

/** `mcpServers`: per configured server, whether it connected at start-up and the protocol revision it negotiated. */
export function startupBanner(
  config: AppConfig,
  base: string,
  mcpServers: Readonly<Record<string, { readonly connected: boolean; readonly protocolVersion?: string }>>,
): string[] {
  const on = (enabled: boolean): string => (enabled ? 'on' : 'off');
  const auth = config.bundleExecution.auth;
  const model = config.chatModel;
  const lines = [
    `surfaces: bundles ${on(config.bundleExecution.enabled)}, workflows on, evals ${on(config.evaluation.enabled)}, direct tool invocation ${on(config.directToolInvocation.enabled)}, MCP gateway ${on(config.mcpGateway.enabled)}, console ${on(config.console.enabled)}, metrics ${on(config.observability.metrics.enabled)}`,
    auth.allowAnonymous ? `auth: anonymous` : `auth: JWT bearer tokens from ${auth.instance.replace(/\/+$/, '')}/${auth.tenantId ?? '?'} (audience api://${auth.clientId ?? '?'})`,
  ];
  if (auth.allowAnonymous) lines.push(ANONYMOUS_WARNING);
  lines.push(
    model.provider === null
      ? 'model: none configured (AppConfig:AI:ChatModel:Provider)'
      : model.provider === 'Scripted'
        ? `model: Scripted (canned replies${model.scriptPath === null ? '' : ` from ${model.scriptPath}`}; no model provider is called)`
        : `model: ${model.provider} ${model.model ?? '(no model set)'}`,
  );
  const servers = Object.keys(config.mcpServers);
  lines.push(
    servers.length === 0
      ? 'MCP servers: none'
      : `MCP servers: ${servers.map((name) => `${name} (${config.mcpServers[name]?.transport}, ${mcpServerState(mcpServers[name])})`).join(', ')}`,
  );
  const roots = config.evaluation.datasetRoots;
  lines.push(`dataset roots: ${roots.length === 0 ? 'none' : roots.join(', ')}`);
  lines.push(`storage: ${config.storage.provider}${config.storage.provider === 'Postgres' ? ` (schema ${config.storage.postgres.schema})` : ' (state is lost on restart)'}`);
  lines.push(`tracing: ${config.observability.tracing.enabled ? `OTLP ${config.observability.tracing.protocol} to ${new URL(config.observability.tracing.endpoint ?? '').origin}` : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT)'}`);
  lines.push(`API reference: ${base}/docs (OpenAPI document: ${base}/openapi.json)`);
  if (config.mcpGateway.enabled) lines.push(`MCP gateway: ${base}/mcp (Streamable HTTP)`);
  if (config.console.enabled) lines.push(`console: ${base}/console`);
  if (config.observability.metrics.enabled) lines.push(`metrics: ${base}/metrics`);
  return lines;
}

/**
 * The banner as one log line (`event` service.started, pino's info level and epoch-ms time), for when
 * stdout is the JSON log: `url` and `environment` to select on, `banner` the human lines as printed.
 */
export function serviceStartedLine(config: AppConfig, base: string, banner: readonly string[]): Record<string, unknown> {
  return { level: 30, time: Date.now(), event: 'service.started', url: base, environment: config.environment, banner, msg: `listening on ${base}` };
}

function mcpServerState(status: { readonly connected: boolean; readonly protocolVersion?: string } | undefined): string {
  if (status?.connected !== true) return 'NOT connected';
  return status.protocolVersion === undefined ? 'connected' : `connected, MCP ${status.protocolVersion}`;
}
