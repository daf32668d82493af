// The text tool's `count_tokens` operation: o200k_base tokens (the GPT-4o / GPT-4.1 / o-series / GPT-5
// encoding) and code points, counted on the tokenizer worker. Special-token text such as "<|endoftext|>"
// is counted as ordinary text. It does not count tokens for other model families.
import { toolFailure, toolSuccess, type ToolCallContext, type ToolResult } from '../../tool.js';
import type { WorkerPool } from '../../../platform/worker/index.js';
import { TOKEN_ENCODING } from './count-tokens-worker.js';
import { workerFailure } from '../worker-failure.js';

export async function countTokens(
  pool: WorkerPool,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { text } = parameters;
  if (typeof text !== 'string') return toolFailure('text must be a string');
  const outcome = await pool.run(context.ownerId, { text }, context.signal);
  if (outcome.status === 'failed') return toolFailure(`token count failed: ${outcome.error}`);
  if (outcome.status !== 'done') return workerFailure(outcome, 'token count');
  const { tokens, characters } = outcome.value as { tokens: number; characters: number };
  return toolSuccess({ tokens, characters, encoding: TOKEN_ENCODING });
}
