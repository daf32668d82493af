// Gives each validated MCP server the shape its transport declares (types.ts McpServerConfig),
// dropping the other transport's fields. Runs only after the rules passed.
import { emptyMap } from './config-target.js';
import type { DraftMcpServer } from './rules/config-rule.js';
import type { McpServerConfig } from './types.js';

export function shapeMcpServers(servers: Readonly<Record<string, DraftMcpServer>>): Record<string, McpServerConfig> {
  const shaped = emptyMap() as Record<string, McpServerConfig>;
  for (const [name, server] of Object.entries(servers)) {
    if (server.transport === 'stdio' && server.command !== null) {
      shaped[name] = { transport: 'stdio', command: server.command, args: server.args, env: server.env };
    } else if (server.transport === 'http' && server.url !== null) {
      shaped[name] = { transport: 'http', url: server.url, headers: server.headers };
    } else {
      throw new Error(`shapeMcpServers: ${name} was not validated`);
    }
  }
  return shaped;
}
