// The one small, versioned interface between the agent loop and every chat-model provider
// (OpenAI-compatible, Azure OpenAI, Anthropic, Scripted). Always streaming. Providers never run
// tools: they report complete tool calls and the agent loop decides what happens.
import type { JsonSchema } from './json-schema.js';

export interface ModelToolCall {
  /** Provider-assigned call id (synthesised when the provider has none). */
  readonly id: string;
  /** Exactly the catalog tool name offered in `tools`. */
  readonly name: string;
  /** The complete arguments as JSON text, as the model produced them. */
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string };

export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the function arguments. */
  readonly parameters: JsonSchema;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolSpec[];
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Aborting cancels the upstream HTTP request. */
  readonly signal: AbortSignal;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

export type ChatStreamPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'tool-call'; readonly call: ModelToolCall }
  | { readonly type: 'finish'; readonly finishReason: FinishReason; readonly usage: TokenUsage };

export interface ChatModel {
  readonly specificationVersion: 'portcullis-chat-v1';
  readonly provider: 'OpenAI' | 'AzureOpenAI' | 'Anthropic' | 'Scripted';
  readonly modelId: string;
  /**
   * Streams one model response. Yields text deltas as they arrive, each tool call once complete,
   * and exactly one `finish` last. Failures reject the iteration with a ChatModelError.
   */
  stream(request: ChatRequest): AsyncIterable<ChatStreamPart>;
}

export type ChatModelErrorCode =
  | 'timeout'
  | 'rate-limited'
  | 'unavailable'
  | 'authentication'
  | 'bad-request'
  | 'invalid-response'
  | 'aborted'
  /** Refused before sending: the request is larger than ChatModel:MaxPromptBytes. */
  | 'prompt-too-large'
  /** Refused before sending: a spend limit of the caller's envelope was reached (DESIGN §16). */
  | 'spend-limit';

/** A model failure. `message` is caller-safe (no upstream body, no key); `cause` goes to the log. */
export class ChatModelError extends Error {
  readonly code: ChatModelErrorCode;
  constructor(code: ChatModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChatModelError';
    this.code = code;
  }
}
