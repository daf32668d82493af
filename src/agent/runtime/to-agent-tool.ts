// A host tool as the agent loop sees it: its catalog name, description and operations, nothing that
// could run it (execution is a governed call).
import type { AgentTool } from '../loop/index.js';
import type { Tool } from '../../tools/index.js';

export function toAgentTool(tool: Tool): AgentTool {
  const { name, description, operations } = tool.descriptor;
  return {
    name,
    description,
    operations: operations.map((op) => ({ name: op.name, description: op.description, parameters: op.parameters })),
  };
}
