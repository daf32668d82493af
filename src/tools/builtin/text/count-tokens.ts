// The text tool's `count_tokens` operation: o200k_base tokens (the GPT-4o / GPT-4.1 / o-series / GPT-5
// encoding) and code points, counted on the tokenizer worker. Special-token text such as "<|endoftext|>"
// is counted as ordinary text. It does not count tokens for other model families.
import { toolFailure, toolSuccess, type ToolResult } from '../../tool.js';
import type { BoundedWorker } from './bounded-worker.js';
import { TOKEN_ENCODING } from './count-tokens-worker.js';
import { workerFailure } from './worker-failure.js';

export async function countTokens(
  worker: BoundedWorker,
  parameters: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { text } = parameters;
  if (typeof text !== 'string') return toolFailure('text must be a string');
  const outcome = await worker.run({ text }, signal);
  if (outcome.status === 'failed') return toolFailure(`token count failed: ${outcome.error}`);
  if (outcome.status !== 'done') return workerFailure(outcome, 'token count');
  const { tokens, characters } = outcome.value as { tokens: number; characters: number };
  return toolSuccess({ tokens, characters, encoding: TOKEN_ENCODING });
}
