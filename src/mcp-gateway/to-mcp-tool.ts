// A catalog tool as an MCP tool (DESIGN.md §15): the catalog's name, and the function the agent
// runtime offers a model for it (§5: description with each operation's schema, input
// `{ operation, parameters }`), with annotations from the descriptor's metadata.
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import { toAgentTool, toModelTools } from '../agent/index.js';
import type { Tool } from '../tools/index.js';

/** The MCP tool, or undefined for a tool with no operation (a model is never offered one either). */
export function toMcpTool(tool: Tool): McpTool | undefined {
  const [offered] = toModelTools([toAgentTool(tool)]);
  if (offered === undefined) return undefined;
  const { isReadOnly, riskTier, reachesNetwork } = tool.descriptor;
  return {
    name: offered.name,
    description: offered.description,
    inputSchema: { ...offered.parameters, type: 'object' },
    annotations: { readOnlyHint: isReadOnly, destructiveHint: riskTier === 'High' || riskTier === 'Critical', openWorldHint: reachesNetwork },
  };
}
