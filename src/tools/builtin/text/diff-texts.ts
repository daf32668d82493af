// The text tool's `diff` operation: a unified line diff (3 lines of context, headers `--- before` and
// `+++ after`) with counts of added and deleted lines, computed on the extract-and-diff worker. Identical
// texts give an empty diff. It does not do word or character diffs.
import { toolFailure, toolSuccess, type ToolCallContext, type ToolResult } from '../../tool.js';
import type { WorkerPool } from '../../../platform/worker/index.js';
import { workerFailure } from '../worker-failure.js';

export async function diffTexts(
  pool: WorkerPool,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { before, after } = parameters;
  if (typeof before !== 'string' || typeof after !== 'string') return toolFailure('before and after must be strings');
  const outcome = await pool.run(context.ownerId, { op: 'diff', before, after }, context.signal);
  if (outcome.status === 'done') return toolSuccess(outcome.value);
  if (outcome.status === 'failed') return toolFailure(`diff failed: ${outcome.error}`);
  return workerFailure(outcome, 'diff');
}
