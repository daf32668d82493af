// The functions the model is offered (DESIGN.md §5): one per tool, named exactly as the catalog names
// it, taking `{ operation, parameters }`. Per-operation parameter schemas go into the description,
// compactly, rather than a oneOf that not every provider accepts.
import type { ModelToolSpec } from '../../models/index.js';
import type { AgentTool, AgentToolOperation } from './agent-tool.js';
import { indexTools } from './index-tools.js';

export function toModelTools(tools: readonly AgentTool[]): ModelToolSpec[] {
  return [...indexTools(tools).values()].map((tool) => ({
    name: tool.name,
    description: describeTool(tool),
    parameters: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: tool.operations.map((op) => op.name), description: 'The operation to run.' },
        parameters: { type: 'object', description: "The operation's arguments, as its schema in the tool description says." },
      },
      required: ['operation'],
      additionalProperties: false,
    },
  }));
}

function describeTool(tool: AgentTool): string {
  const operations = tool.operations.map(describeOperation).join('\n');
  return `${tool.description}\nOperations (pass the name as "operation" and its arguments as "parameters"):\n${operations}`;
}

function describeOperation(op: AgentToolOperation): string {
  return `- ${op.name}: ${op.description} Parameters schema: ${JSON.stringify(op.parameters)}`;
}
