// Offers each catalog tool to the model as a plain function tool: name exactly as given, its
// description, its JSON Schema. No provider-executed tools, no strict mode (schemas are ours).
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import type { ModelToolSpec } from './chat-model.js';

export function toFunctionTools(tools: readonly ModelToolSpec[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  }));
}
