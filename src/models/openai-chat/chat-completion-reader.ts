// Reads one streamed Chat Completions reply, event by event, into our parts: text (and refusal)
// deltas as they come, each tool call once complete (assembled by the AI SDK's own
// StreamingToolCallTracker, which copes with the servers that repeat ids, omit indexes or split
// names), then exactly one `finish` with the usage the server reported. An `error` event before any
// output fails like the HTTP status it stands for (retried when that status is); after output it
// fails the stream. A chunk that is not JSON, or not a chunk, is an invalid response.
import { JSONParseError, TypeValidationError, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { secureJsonParse, StreamingToolCallTracker } from '../../platform/vendor/ai-sdk-provider-utils.js';
import type { ChatStreamPart, FinishReason, ModelToolCall } from '../chat-model.js';
import { UpstreamHttpError } from '../upstream-http-error.js';
import { UpstreamStreamError } from '../upstream-stream-error.js';
import { checkChunk, type ChatCompletionChunk, type ChunkUsage } from './chat-completion-chunk.js';
import { streamErrorStatus } from './stream-error-status.js';

export class ChatCompletionReader {
  readonly #responseHeaders: () => Readonly<Record<string, string>>;
  readonly #calls: ModelToolCall[] = [];
  /** Made at the first tool-call delta: a reply of text alone (most open streams) needs none. */
  #tracker: StreamingToolCallTracker | undefined;
  #outputSeen = false;
  #refusal = false;
  #finishReason: string | undefined;
  #usage: ChunkUsage | undefined;

  /** `responseHeaders`: the 200 response's, for the Retry-After of an error event before any output. */
  constructor(responseHeaders: () => Readonly<Record<string, string>>) {
    this.#responseHeaders = responseHeaders;
  }

  /** Reads one event's data, pushing its text deltas to `out`. */
  read(data: string, out: ChatStreamPart[]): void {
    if (data === '[DONE]') return;
    let value: unknown;
    try {
      value = parseChunk(data);
    } catch (cause) {
      throw new JSONParseError({ text: data, cause });
    }
    const checked = checkChunk(value);
    if (checked === undefined) throw new TypeValidationError({ value, cause: 'not a chat completion chunk' });
    if (checked.kind === 'error') {
      if (this.#outputSeen) throw new UpstreamStreamError(checked.error);
      throw new UpstreamHttpError(streamErrorStatus(checked.error), this.#responseHeaders());
    }
    const chunk = checked.chunk;
    if (!this.#outputSeen) this.#outputSeen = isOutput(chunk);
    if (chunk.usage != null) this.#usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) return;
    if (choice.finish_reason != null) this.#finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta == null) return;
    if (delta.content) out.push({ type: 'text-delta', delta: delta.content });
    if (delta.refusal) {
      this.#refusal = true;
      out.push({ type: 'text-delta', delta: delta.refusal });
    }
    if (delta.tool_calls != null) {
      const tracker = (this.#tracker ??= this.#newTracker());
      for (const call of delta.tool_calls) tracker.processDelta(call);
    }
  }

  #newTracker(): StreamingToolCallTracker {
    return new StreamingToolCallTracker(
      { enqueue: (part: LanguageModelV3StreamPart) => void (part.type === 'tool-call' && this.#calls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input })) },
      { typeValidation: 'if-present' },
    );
  }

  /** At the end of the body: the tool calls still open, then the one `finish`. */
  end(out: ChatStreamPart[]): void {
    this.#tracker?.flush();
    for (const call of this.#calls) out.push({ type: 'tool-call', call });
    out.push({
      type: 'finish',
      finishReason: finishReason(this.#finishReason, this.#refusal, this.#calls.length > 0),
      usage: { inputTokens: this.#usage?.prompt_tokens ?? 0, outputTokens: this.#usage?.completion_tokens ?? 0 },
    });
  }
}

/**
 * secureJsonParse's value, without its cost on every chunk: it filters only a text in which its
 * patterns find a `__proto__` or `constructor` key, written plainly or with \u escapes, and neither
 * can be written without one of the three strings tested here; such a text goes through it as before.
 */
function parseChunk(data: string): unknown {
  return data.includes('__proto__') || data.includes('constructor') || data.includes('\\u') ? secureJsonParse(data) : JSON.parse(data);
}

/** Whether a chunk carries output (after which an error event is no longer retried as a status). */
function isOutput(chunk: ChatCompletionChunk): boolean {
  return chunk.choices.some(({ delta }) => !!delta && (!!delta.content || !!delta.refusal || !!delta.tool_calls?.length || !!delta.annotations?.length));
}

/**
 * The SDK's mapping, then ours: a refusal that stopped is a content filter, and some OpenAI-compatible
 * servers (Ollama, llama.cpp) say `stop` after tool calls, which the agent loop should not need to know.
 */
function finishReason(raw: string | undefined, refusal: boolean, hadToolCalls: boolean): FinishReason {
  const mapped: FinishReason =
    raw === 'stop' ? (refusal ? 'content-filter' : 'stop')
    : raw === 'length' ? 'length'
    : raw === 'content_filter' ? 'content-filter'
    : raw === 'tool_calls' || raw === 'function_call' ? 'tool-calls'
    : 'other';
  return hadToolCalls && (mapped === 'stop' || mapped === 'other') ? 'tool-calls' : mapped;
}
