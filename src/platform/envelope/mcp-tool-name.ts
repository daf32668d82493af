// Splits a catalog MCP tool name `mcp__S__T` into server and tool, keeping their spelling. Structural
// only: it does not say whether the tool exists or is allowed, and a server pattern (`mcp__S`) is no name.

export interface McpToolName {
  readonly server: string;
  readonly tool: string;
}

export const MCP_PREFIX = 'mcp__';
const SEPARATOR = '__';

/** The prefix is matched case-insensitively; the server ends at the first `__` (server names contain none). */
export function parseMcpToolName(name: string): McpToolName | null {
  if (name.slice(0, MCP_PREFIX.length).toLowerCase() !== MCP_PREFIX) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf(SEPARATOR);
  if (split <= 0) return null;
  const tool = rest.slice(split + SEPARATOR.length);
  return tool === '' ? null : { server: rest.slice(0, split), tool };
}
