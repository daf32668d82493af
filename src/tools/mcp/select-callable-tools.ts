// Picks, from a server's listing, the tools the catalog can offer: a well-formed name (the MCP spec's
// 1–128 characters of letters, digits, `_`, `-`, `.`), listed once, and callable with a plain
// `tools/call` (a tool that requires task-based execution is not). Skips are logged, never thrown.
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { McpLog } from './mcp-log.js';

const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

export function selectCallableTools(server: string, listed: readonly McpToolDefinition[], log: McpLog): McpToolDefinition[] {
  const seen = new Set<string>();
  const selected: McpToolDefinition[] = [];
  for (const tool of listed) {
    const reason = !TOOL_NAME.test(tool.name)
      ? 'malformed name'
      : seen.has(tool.name)
        ? 'listed twice'
        : tool.execution?.taskSupport === 'required'
          ? 'requires task-based execution'
          : null;
    if (reason !== null) {
      // A task-only tool is a known limitation, not a fault of the server.
      const write = reason === 'requires task-based execution' ? log.info?.bind(log) : log.warn.bind(log);
      write?.({ server, tool: tool.name.slice(0, 200), reason }, 'MCP tool skipped');
      continue;
    }
    seen.add(tool.name);
    selected.push(tool);
  }
  return selected;
}
