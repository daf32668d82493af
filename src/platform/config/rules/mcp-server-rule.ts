// MCP servers: stdio needs Command, http needs Url; fields of the other transport are ignored
// with a warning (a later layer may switch transport but cannot delete an earlier layer's keys).
// Names may not contain `__`, which separates server and tool in catalog names (mcp__S__T). A
// field whose own value was refused is not reported a second time as missing.
import type { ConfigRule, DraftMcpServer, RuleContext, RuleReport } from './config-rule.js';

const SERVERS = 'AppConfig:AI:McpServers';

export const mcpServerRule: ConfigRule = {
  reads: [],
  check({ mcpServers }, report, context) {
    for (const [name, server] of Object.entries(mcpServers)) checkServer(`${SERVERS}:${name}`, name, server, report, context);
  },
};

function checkServer(key: string, name: string, server: DraftMcpServer, report: RuleReport, { refused }: RuleContext): void {
  if (name.includes('__')) report.problem(`${key}: a server name must not contain "__" (tools are named mcp__{server}__{tool})`);
  if (server.transport === 'stdio') {
    if (server.command === null && !refused(`${key}:Command`)) report.problem(`${key}:Command: is required when Transport is stdio`);
    const ignored = [server.url !== null && 'Url', Object.keys(server.headers).length > 0 && 'Headers'];
    warnIgnored(key, ignored, 'stdio', report);
  } else if (server.transport === 'http') {
    if (server.url === null && !refused(`${key}:Url`)) report.problem(`${key}:Url: is required when Transport is http`);
    const ignored = [
      server.command !== null && 'Command',
      server.args.length > 0 && 'Args',
      Object.keys(server.env).length > 0 && 'Env',
    ];
    warnIgnored(key, ignored, 'http', report);
  }
}

function warnIgnored(key: string, fields: readonly (string | false)[], transport: string, report: RuleReport): void {
  for (const field of fields) if (field) report.warning(`${key}:${field}: ignored because Transport is ${transport}`);
}
