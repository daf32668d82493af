// Translates one provider stream (AI SDK LanguageModelV3 parts) into ours: text deltas as they
// come, each tool call once complete (the SDK's `tool-call` part carries the whole argument text),
// exactly one `finish`. Reasoning, sources and metadata parts are dropped; `error` parts throw.
import type { LanguageModelV3FinishReason, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { ChatModelError, type ChatStreamPart, type FinishReason, type TokenUsage } from './chat-model.js';
import { UpstreamStreamError } from './upstream-stream-error.js';

export interface StreamPartTranslator {
  /** Our part for this provider part, or null when it has no counterpart. */
  translate(part: LanguageModelV3StreamPart): ChatStreamPart | null;
  /** Throws when the upstream stream ended without a finish part. */
  end(): void;
}

export function createStreamPartTranslator(): StreamPartTranslator {
  let toolCalls = 0;
  let finished = false;
  return {
    translate(part) {
      if (finished) return null;
      switch (part.type) {
        case 'text-delta':
          return part.delta === '' ? null : { type: 'text-delta', delta: part.delta };
        case 'tool-call':
          if (part.providerExecuted === true) return null;
          toolCalls += 1;
          return { type: 'tool-call', call: { id: part.toolCallId, name: part.toolName, arguments: part.input } };
        case 'finish':
          finished = true;
          return { type: 'finish', finishReason: toFinishReason(part.finishReason, toolCalls > 0), usage: toUsage(part.usage) };
        case 'error':
          throw new UpstreamStreamError(part.error);
        default:
          return null;
      }
    },
    end() {
      if (!finished) throw new ChatModelError('invalid-response', 'The chat model sent an invalid response.');
    },
  };
}

/**
 * Some OpenAI-compatible servers (Ollama, llama.cpp) say `stop` after emitting tool calls; the
 * agent loop should not have to know, so a step with tool calls finishes with `tool-calls`.
 */
function toFinishReason(reason: LanguageModelV3FinishReason, hadToolCalls: boolean): FinishReason {
  if (hadToolCalls && (reason.unified === 'stop' || reason.unified === 'other')) return 'tool-calls';
  return reason.unified === 'error' ? 'other' : reason.unified;
}

function toUsage(usage: LanguageModelV3Usage | undefined): TokenUsage {
  return { inputTokens: usage?.inputTokens.total ?? 0, outputTokens: usage?.outputTokens.total ?? 0 };
}
