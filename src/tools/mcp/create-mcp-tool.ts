// Wraps one MCP server tool as a catalog Tool: only the `call` operation exists, and invoking it
// goes through the owning connection, so the Tool survives reconnects of that server.
import type { Tool, ToolCallContext, ToolDescriptor, ToolResult } from '../tool.js';
import { toolFailure } from '../tool.js';
import { MCP_CALL_OPERATION } from './mcp-tool-descriptor.js';

export type McpToolCall = (
  mcpToolName: string,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
) => Promise<ToolResult>;

export function createMcpTool(descriptor: ToolDescriptor, mcpToolName: string, call: McpToolCall): Tool {
  return Object.freeze({
    descriptor,
    invoke(operation: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult> {
      if (operation !== MCP_CALL_OPERATION) {
        return Promise.resolve(toolFailure(`Unknown operation '${operation}' for ${descriptor.name}.`));
      }
      return call(mcpToolName, parameters, context);
    },
  });
}
