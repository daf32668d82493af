// The shape of one streamed Chat Completions chunk, checked as the AI SDK's schema checked it for
// every field Portcullis reads (choices, deltas, tool-call deltas, finish reasons, usage): either a
// chunk, or an `error` event (`{ error: { message, … } }`), or neither — an invalid response.
// Fields Portcullis never reads (logprobs, annotations, token details) are not inspected.
export interface ToolCallDelta {
  readonly index: number;
  readonly id?: string | null;
  readonly type?: 'function' | null;
  readonly function: { readonly name?: string | null; readonly arguments?: string | null };
}

export interface ChunkChoice {
  readonly index: number;
  readonly delta?: {
    readonly content?: string | null;
    readonly refusal?: string | null;
    readonly tool_calls?: readonly ToolCallDelta[] | null;
    readonly annotations?: readonly unknown[] | null;
  } | null;
  readonly finish_reason?: string | null;
}

export interface ChunkUsage {
  readonly prompt_tokens?: number | null;
  readonly completion_tokens?: number | null;
}

export interface ChatCompletionChunk {
  readonly choices: readonly ChunkChoice[];
  readonly usage?: ChunkUsage | null;
}

export type CheckedChunk = { readonly kind: 'chunk'; readonly chunk: ChatCompletionChunk } | { readonly kind: 'error'; readonly error: Record<string, unknown> };

/** The chunk or error event `value` is, or undefined when it is neither. */
export function checkChunk(value: unknown): CheckedChunk | undefined {
  if (!isRecord(value)) return undefined;
  if (isChunk(value)) return { kind: 'chunk', chunk: value as unknown as ChatCompletionChunk };
  const error = value.error;
  if (isRecord(error) && typeof error.message === 'string' && nullishOr(error.type, 'string') && (error.code == null || typeof error.code === 'string' || typeof error.code === 'number')) {
    return { kind: 'error', error };
  }
  return undefined;
}

function isChunk(value: Record<string, unknown>): boolean {
  if (!nullishOr(value.id, 'string') || !nullishOr(value.created, 'number') || !nullishOr(value.model, 'string')) return false;
  const { choices, usage } = value;
  if (!Array.isArray(choices) || !choices.every(isChoice)) return false;
  return usage == null || (isRecord(usage) && nullishOr(usage.prompt_tokens, 'number') && nullishOr(usage.completion_tokens, 'number') && nullishOr(usage.total_tokens, 'number'));
}

function isChoice(choice: unknown): boolean {
  if (!isRecord(choice) || typeof choice.index !== 'number' || !nullishOr(choice.finish_reason, 'string')) return false;
  const delta = choice.delta;
  if (delta == null) return true;
  if (!isRecord(delta)) return false;
  if (delta.role != null && delta.role !== 'assistant') return false;
  if (!nullishOr(delta.content, 'string') || !nullishOr(delta.refusal, 'string')) return false;
  if (delta.annotations != null && !Array.isArray(delta.annotations)) return false;
  const calls = delta.tool_calls;
  return calls == null || (Array.isArray(calls) && calls.every(isToolCallDelta));
}

function isToolCallDelta(call: unknown): boolean {
  if (!isRecord(call) || typeof call.index !== 'number' || !nullishOr(call.id, 'string')) return false;
  if (call.type != null && call.type !== 'function') return false;
  const fn = call.function;
  return isRecord(fn) && nullishOr(fn.name, 'string') && nullishOr(fn.arguments, 'string');
}

function nullishOr(value: unknown, type: 'string' | 'number'): boolean {
  return value == null || typeof value === type;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
