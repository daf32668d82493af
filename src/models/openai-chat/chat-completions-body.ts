// The Chat Completions request for one model call, as JSON text: the history as OpenAI messages
// (consecutive tool results each their own `tool` message), every catalog tool as a plain function
// tool with `tool_choice: auto`, streaming with usage. Field for field what the AI SDK's chat model
// sent for our prompts: tool-call arguments travel as the model's own JSON text when it is an object
// (prototype keys refused, as the SDK's secure parse did), else `{}`; an assistant turn that only
// called tools has `content: null`.
import { secureJsonParse } from '../../platform/vendor/ai-sdk-provider-utils.js';
import type { ChatMessage, ChatRequest, ModelToolCall, ModelToolSpec } from '../chat-model.js';
import type { OpenAIModelFamily } from './openai-model-family.js';

export interface ChatCompletionsSettings {
  readonly modelId: string;
  readonly family: OpenAIModelFamily;
  readonly maxOutputTokens: number;
  readonly temperature: number | null;
}

export function chatCompletionsBody(request: ChatRequest, settings: ChatCompletionsSettings): string {
  const { family } = settings;
  const maxTokens = request.maxOutputTokens ?? settings.maxOutputTokens;
  const temperature = family.acceptsTemperature ? (request.temperature ?? settings.temperature ?? undefined) : undefined;
  const hasTools = request.tools.length > 0;
  return JSON.stringify({
    model: settings.modelId,
    max_tokens: family.reasoning ? undefined : maxTokens,
    temperature,
    max_completion_tokens: family.reasoning ? maxTokens : undefined,
    messages: request.messages.map((message) => toMessage(message, family.reasoning ? 'developer' : 'system')),
    tools: hasTools ? request.tools.map(toFunctionTool) : undefined,
    tool_choice: hasTools ? 'auto' : undefined,
    stream: true,
    stream_options: { include_usage: true },
  });
}

function toMessage(message: ChatMessage, systemRole: 'system' | 'developer'): object {
  switch (message.role) {
    case 'system':
      return { role: systemRole, content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return { role: 'assistant', content: message.content === '' ? null : message.content, tool_calls: calls.map(toToolCall) };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function toToolCall(call: ModelToolCall): object {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: isJsonObjectText(call.arguments) ? call.arguments : '{}' } };
}

function toFunctionTool(tool: ModelToolSpec): object {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = secureJsonParse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
