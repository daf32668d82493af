// The Scripted provider: offline and deterministic, behind the same interface as the HTTP
// providers (DESIGN §8). Rules given in code win over a rules file; with neither, the built-in
// script runs. Tool-call ids continue the conversation's count (`call_1`, `call_2`, …), so the
// same history always yields the same ids and ids never repeat within a conversation.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChatModelError, type ChatMessage, type ChatModel, type ChatRequest, type ChatStreamPart, type ModelToolCall } from '../chat-model.js';
import { estimateTokens } from './estimate-tokens.js';
import { loadScript } from './load-script.js';
import { planScriptedReply } from './plan-scripted-reply.js';
import type { ScriptRule } from './script-rule.js';
import { splitIntoDeltas } from './split-into-deltas.js';

export interface ScriptedModelOptions {
  readonly rules?: readonly ScriptRule[];
  readonly scriptPath?: string | null;
  readonly modelId?: string;
}

export function createScriptedModel(options: ScriptedModelOptions = {}): ChatModel {
  const rules = options.rules ?? (options.scriptPath ? loadScript(options.scriptPath) : []);
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: options.modelId ?? 'scripted',
    stream: (request) => streamScripted(rules, request),
  };
}

async function* streamScripted(rules: readonly ScriptRule[], request: ChatRequest): AsyncGenerator<ChatStreamPart> {
  throwIfAborted(request.signal);
  const turn = planScriptedReply(request.messages, rules);
  const firstId = countToolCalls(request.messages) + 1;
  const calls: ModelToolCall[] = turn.toolCalls.map((call, index) => ({
    id: `call_${firstId + index}`,
    name: call.tool,
    arguments: JSON.stringify({ operation: call.operation, parameters: call.parameters }),
  }));
  for (const delta of splitIntoDeltas(turn.text)) {
    yield { type: 'text-delta', delta };
    // A real turn of the event loop between deltas, as a network stream would give.
    await nextTurn();
    throwIfAborted(request.signal);
  }
  for (const call of calls) {
    yield { type: 'tool-call', call };
    throwIfAborted(request.signal);
  }
  const outputCharacters = turn.text.length + calls.reduce((sum, call) => sum + call.arguments.length, 0);
  yield {
    type: 'finish',
    finishReason: calls.length > 0 ? 'tool-calls' : 'stop',
    usage: { inputTokens: estimateTokens(countCharacters(request.messages)), outputTokens: estimateTokens(outputCharacters) },
  };
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ChatModelError('aborted', 'The chat model request was cancelled.');
}

function countToolCalls(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
}

function countCharacters(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => {
    const calls = m.role === 'assistant' ? (m.toolCalls ?? []).reduce((s, c) => s + c.arguments.length, 0) : 0;
    return sum + m.content.length + calls;
  }, 0);
}
