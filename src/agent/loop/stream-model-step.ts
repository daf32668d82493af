// One model call of the tool loop: streams the response, relays its text as it arrives (one
// assistant message, redacted), collects the complete tool calls and sums the reported usage.
// Cancellation ends the wait at once and emits nothing more; any other failure closes the open
// message first, so every TEXT_MESSAGE_START has its END, and then propagates.
import type { ChatModel, ChatRequest, ChatStreamPart, ModelToolCall, TokenUsage } from '../../models/index.js';
import type { IdGenerator } from '../../platform/clock/index.js';
import { abortReason as abortError, untilAborted } from '../../platform/abort/index.js';
import type { AgentEvent } from './agent-event.js';
import { TextMessageRelay } from './text-message-relay.js';

export interface ModelStep {
  /** The raw text, as the model wrote it. */
  readonly text: string;
  /** The text the stream carried (redacted). */
  readonly relayedText: string;
  /** The step's assistant message id when it produced text frames. */
  readonly messageId: string | undefined;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage: TokenUsage;
}

export interface ModelStepInput {
  readonly model: ChatModel;
  readonly request: Omit<ChatRequest, 'signal'>;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  readonly ids: IdGenerator;
}

export async function streamModelStep(input: ModelStepInput): Promise<ModelStep> {
  const { signal } = input;
  const relay = new TextMessageRelay(input.emit, input.ids);
  const toolCalls: ModelToolCall[] = [];
  let text = '';
  let inputTokens = 0;
  let outputTokens = 0;
  let iterator: AsyncIterator<ChatStreamPart> | undefined;
  try {
    iterator = input.model.stream({ ...input.request, signal })[Symbol.asyncIterator]();
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next.done === true) break;
      const part = next.value;
      if (part.type === 'text-delta') {
        text += part.delta;
        relay.push(part.delta);
      } else if (part.type === 'tool-call') {
        toolCalls.push(part.call);
      } else {
        inputTokens += tokenCount(part.usage.inputTokens);
        outputTokens += tokenCount(part.usage.outputTokens);
      }
    }
  } catch (error) {
    // Releases the provider's resources; it may still be stuck in its own await, so not awaited.
    iterator?.return?.().catch(() => undefined);
    if (signal.aborted) throw abortError(signal);
    relay.end();
    throw error;
  }
  relay.end();
  return { text, relayedText: relay.text, messageId: relay.messageId, toolCalls, usage: { inputTokens, outputTokens } };
}

/** A provider's count, or 0 when it reported nothing usable. */
function tokenCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
