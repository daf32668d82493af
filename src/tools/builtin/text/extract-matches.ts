// The text tool's `extract` operation: checks the pattern and flags here, then runs the match on the
// extract-and-diff worker under its time bound. It does not restrict patterns to a backtracking-free
// subset: the time bound, not the pattern, is what keeps a hostile pattern harmless.
import { toolFailure, toolSuccess, type ToolCallContext, type ToolResult } from '../../tool.js';
import type { WorkerPool } from '../../../platform/worker/index.js';
import { MAX_CAPTURED_CHARACTERS, MAX_MATCHES } from './text-limits.js';
import { workerFailure } from '../worker-failure.js';

const FLAGS = /^[gimsuy]*$/;

/** The flags to compile with: the caller's, de-duplicated, plus `g` (extraction finds every match). */
function extractionFlags(flags: string): string {
  return [...new Set(`${flags}g`)].sort().join('');
}

export async function extractMatches(
  pool: WorkerPool,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { text, pattern, flags = '' } = parameters;
  if (typeof text !== 'string' || typeof pattern !== 'string' || typeof flags !== 'string') {
    return toolFailure('text, pattern and flags must be strings');
  }
  if (!FLAGS.test(flags)) return toolFailure('flags may only contain g, i, m, s, u and y');
  const compiledFlags = extractionFlags(flags);
  try {
    new RegExp(pattern, compiledFlags);
  } catch (error) {
    return toolFailure(`invalid pattern: ${error instanceof Error ? error.message : 'not a regular expression'}`);
  }
  const request = { op: 'extract', text, pattern, flags: compiledFlags, maxMatches: MAX_MATCHES, maxCapturedChars: MAX_CAPTURED_CHARACTERS };
  const outcome = await pool.run(context.ownerId, request, context.signal);
  if (outcome.status === 'done') return toolSuccess(outcome.value);
  if (outcome.status === 'failed') return toolFailure(`pattern failed: ${outcome.error}`);
  return workerFailure(outcome, 'pattern');
}
