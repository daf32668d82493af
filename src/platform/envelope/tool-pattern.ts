// One entry of an AllowedTools list (or of a bundle's allowed-tools request), parsed and lower-cased.
// `*` is meaningful only as the whole tool part of an MCP entry; anything else containing `*` is refused.
import { MCP_PREFIX, parseMcpToolName } from './mcp-tool-name.js';

export type ToolPattern =
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'mcp-tool'; readonly server: string; readonly tool: string }
  | { readonly kind: 'mcp-server'; readonly server: string };

/** Null for an entry that can never match a tool: empty, a stray `*`, or a malformed `mcp__` name. */
export function parseToolPattern(raw: string): ToolPattern | null {
  const text = raw.trim().toLowerCase();
  if (text === '') return null;
  if (!text.startsWith(MCP_PREFIX)) return text.includes('*') ? null : { kind: 'tool', name: text };
  const serverOnly = text.slice(MCP_PREFIX.length);
  if (serverOnly !== '' && !serverOnly.includes('__')) {
    return serverOnly.includes('*') ? null : { kind: 'mcp-server', server: serverOnly };
  }
  const parsed = parseMcpToolName(text);
  if (!parsed || parsed.server.includes('*')) return null;
  if (parsed.tool === '*') return { kind: 'mcp-server', server: parsed.server };
  return parsed.tool.includes('*') ? null : { kind: 'mcp-tool', server: parsed.server, tool: parsed.tool };
}

/** The canonical spelling: `mcp__S` and `mcp__S__*` both become `mcp__S__*`. */
export function formatToolPattern(pattern: ToolPattern): string {
  switch (pattern.kind) {
    case 'tool':
      return pattern.name;
    case 'mcp-tool':
      return `${MCP_PREFIX}${pattern.server}__${pattern.tool}`;
    case 'mcp-server':
      return `${MCP_PREFIX}${pattern.server}__*`;
  }
}
