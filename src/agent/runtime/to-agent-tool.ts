// A host tool as the agent loop sees it: its catalog name, description and operations, nothing that
// could run it (execution is a governed call). One per tool, made once: every run that offers the tool
// shares it, and with it the function spec the model is sent (toModelTools), instead of holding copies.
import type { AgentTool } from '../loop/index.js';
import type { Tool } from '../../tools/index.js';

const agentTools = new WeakMap<Tool, AgentTool>();

export function toAgentTool(tool: Tool): AgentTool {
  let agentTool = agentTools.get(tool);
  if (agentTool === undefined) {
    const { name, description, operations } = tool.descriptor;
    agentTool = {
      name,
      description,
      operations: operations.map((op) => ({ name: op.name, description: op.description, parameters: op.parameters })),
    };
    agentTools.set(tool, agentTool);
  }
  return agentTool;
}
