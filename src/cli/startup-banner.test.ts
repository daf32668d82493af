import { describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../platform/config/index.js';
import { ANONYMOUS_WARNING, startupBanner } from './startup-banner.js';

function config(env: Record<string, string>): AppConfig {
  const loaded = loadConfig({ cwd: '/nonexistent', env: { PORTCULLIS_ENVIRONMENT: 'Production', ...env }, configFiles: [] });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.config;
}

describe('the start-up banner', () => {
  it('names the JWT authority, the model, each MCP server’s state, the tracing endpoint’s origin and leaves out what is off, never a secret', () => {
    const lines = startupBanner(
      config({
        AppConfig__AI__BundleExecution__Auth__TenantId: 'contoso',
        AppConfig__AI__BundleExecution__Auth__ClientId: 'portcullis',
        AppConfig__AI__ChatModel__Provider: 'OpenAI',
        AppConfig__AI__ChatModel__Model: 'gpt-4o-mini',
        AppConfig__AI__ChatModel__ApiKey: 'sk-secret-key-never-shown-0123456789',
        AppConfig__AI__McpServers__files__Transport: 'stdio',
        AppConfig__AI__McpServers__files__Command: 'mcp-files',
        AppConfig__AI__McpServers__search__Transport: 'http',
        AppConfig__AI__McpServers__search__Url: 'http://127.0.0.1:9/mcp',
        AppConfig__Observability__Metrics__Enabled: 'false',
        AppConfig__Console__Enabled: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=hush-hush',
      }),
      'http://127.0.0.1:8080',
      { files: { connected: true, protocolVersion: '2025-11-25' }, search: { connected: false } },
    );
    expect(lines).toContain('auth: JWT bearer tokens from https://login.microsoftonline.com/contoso (audience api://portcullis)');
    expect(lines).not.toContain(ANONYMOUS_WARNING);
    expect(lines).toContain('model: OpenAI gpt-4o-mini');
    expect(lines).toContain('MCP servers: files (stdio, connected, MCP 2025-11-25), search (http, NOT connected)');
    expect(lines).toContain('storage: Memory (state is lost on restart)');
    expect(lines).toContain('tracing: OTLP http/protobuf to http://collector.internal:4318');
    expect(lines.some((line) => line.startsWith('metrics: ') || line.startsWith('console: '))).toBe(false);
    expect(lines.join('\n')).not.toMatch(/sk-secret|hush-hush|mcp-files/);
  });
});
