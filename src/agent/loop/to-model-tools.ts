// The functions the model is offered (DESIGN.md §5): one per tool, named exactly as the catalog names
// it, taking `{ operation, parameters }`. Per-operation parameter schemas go into the description,
// compactly, rather than a oneOf that not every provider accepts. A tool's spec is made once per
// AgentTool object (the runtime makes one per tool) and shared by every run that offers it: the
// description alone is about 1.3 KB for the clock, and 1,000 open runs held 1,000 copies.
import type { ModelToolSpec } from '../../models/index.js';
import type { AgentTool, AgentToolOperation } from './agent-tool.js';
import { indexTools } from './index-tools.js';

const specs = new WeakMap<AgentTool, ModelToolSpec>();

export function toModelTools(tools: readonly AgentTool[]): ModelToolSpec[] {
  return [...indexTools(tools).values()].map(specOf);
}

function specOf(tool: AgentTool): ModelToolSpec {
  let spec = specs.get(tool);
  if (spec === undefined) {
    spec = toSpec(tool);
    specs.set(tool, spec);
  }
  return spec;
}

function toSpec(tool: AgentTool): ModelToolSpec {
  return {
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
  };
}

function describeTool(tool: AgentTool): string {
  const operations = tool.operations.map(describeOperation).join('\n');
  return `${tool.description}\nOperations (pass the name as "operation" and its arguments as "parameters"):\n${operations}`;
}

function describeOperation(op: AgentToolOperation): string {
  return `- ${op.name}: ${op.description} Parameters schema: ${JSON.stringify(op.parameters)}`;
}
