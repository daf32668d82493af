// Maps one tool an MCP server publishes to the catalog's descriptor: the name `mcp__<server>__<tool>`
// (spellings kept), one `call` operation whose parameters are the tool's input schema, and the
// governance flags. Annotations are the server's claim; a host override of read-only wins over it.
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { JsonSchema, ToolDescriptor } from '../tool.js';

export const MCP_CALL_OPERATION = 'call';
export const MCP_DESCRIPTION_MAX_CHARS = 1_024;

export interface McpAnnotationOverrides {
  readonly readOnly?: boolean;
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

export function mcpToolDescriptor(
  server: string,
  tool: McpToolDefinition,
  overrides: McpAnnotationOverrides = {},
): ToolDescriptor {
  const isReadOnly = overrides.readOnly ?? tool.annotations?.readOnlyHint === true;
  return Object.freeze({
    name: mcpToolName(server, tool.name),
    description: bounded(
      [tool.description, tool.title, tool.annotations?.title].find((text) => text !== undefined && text.trim() !== '') ??
        `Tool ${tool.name} of MCP server ${server}.`,
    ),
    operations: Object.freeze([
      Object.freeze({
        name: MCP_CALL_OPERATION,
        description: `Call the MCP tool ${tool.name} on server ${server}.`,
        parameters: parametersSchema(tool.inputSchema),
      }),
    ]),
    // Risk follows the effective read-only flag, so a host that distrusts a server's hint also keeps it High.
    riskTier: isReadOnly ? 'Medium' : 'High',
    isReadOnly,
    isConcurrencySafe: true,
    isDirectlyInvocable: true,
    // An external process or endpoint: data handed to it has left the host.
    reachesNetwork: true,
  });
}

/** Drops `$schema`: servers declare draft-07 or 2020-12 and the catalog compiles one dialect. */
function parametersSchema(inputSchema: McpToolDefinition['inputSchema']): JsonSchema {
  const { $schema: _dialect, ...schema } = inputSchema as Record<string, unknown>;
  return Object.freeze(schema);
}

function bounded(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MCP_DESCRIPTION_MAX_CHARS ? `${trimmed.slice(0, MCP_DESCRIPTION_MAX_CHARS - 1)}…` : trimmed;
}
