// Maps our ChatMessage history onto the AI SDK's provider-neutral prompt. Consecutive tool
// results become one tool message (Anthropic needs them in one user turn); tool-call arguments
// travel as the model's own JSON text when it is an object, else as `{}` (providers require one).
import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultPart } from '@ai-sdk/provider';
import type { ChatMessage, ModelToolCall } from './chat-model.js';

export function toLanguageModelPrompt(messages: readonly ChatMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant':
        prompt.push({
          role: 'assistant',
          content: [
            ...(message.content !== '' || !message.toolCalls?.length ? [{ type: 'text' as const, text: message.content }] : []),
            ...(message.toolCalls ?? []).map(toToolCallPart),
          ],
        });
        break;
      case 'tool': {
        const part: LanguageModelV3ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: { type: 'text', value: message.content },
        };
        const previous = prompt.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function toToolCallPart(call: ModelToolCall): { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown } {
  return { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: isJsonObjectText(call.arguments) ? call.arguments : {} };
}

function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
