// The usable tools by exact catalog name: the first of any duplicate name wins and a tool without
// operations is left out (it could never be called). Offering and lookup both go through this, so
// the model is offered exactly what a call can reach; anything else is an unknown tool (denied).
import type { AgentTool } from './agent-tool.js';

export function indexTools(tools: readonly AgentTool[]): ReadonlyMap<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (tool.operations.length > 0 && !byName.has(tool.name)) byName.set(tool.name, tool);
  }
  return byName;
}
