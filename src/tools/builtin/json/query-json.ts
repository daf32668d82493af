// The json tool's `query` operation: a JMESPath expression over `data`, run on the json worker under its
// time bound, answered as { result }. It does not support JMESPath extensions or custom functions.
import { toolFailure, toolSuccess, type ToolCallContext, type ToolResult } from '../../tool.js';
import type { WorkerPool } from '../../../platform/worker/index.js';
import { workerFailure } from '../worker-failure.js';
import { MAX_DATA_CHARACTERS, MAX_EXPRESSION_LENGTH, MAX_RESULT_CHARACTERS } from './json-limits.js';
import { sanitizeErrorMessage } from './sanitize-error-message.js';
import { serializedLength } from './serialized-length.js';

export async function queryJson(
  pool: WorkerPool,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { data, expression } = parameters;
  if (typeof expression !== 'string') return toolFailure('expression must be a string');
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    return toolFailure(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  }
  const dataLength = serializedLength(data);
  if (dataLength === undefined) return toolFailure('data must be a JSON value');
  if (dataLength > MAX_DATA_CHARACTERS) return toolFailure(`data is larger than ${MAX_DATA_CHARACTERS} characters of JSON`);

  const request = { op: 'query', data, expression, maxResultChars: MAX_RESULT_CHARACTERS };
  const outcome = await pool.run(context.ownerId, request, context.signal);
  if (outcome.status === 'failed') return toolFailure(`query failed: ${sanitizeErrorMessage(outcome.error)}`);
  if (outcome.status !== 'done') return workerFailure(outcome, 'query');
  // The worker hands back the result already serialized (and size-checked), so it is spliced in as is.
  return toolSuccess(`{"result":${String(outcome.value)}}`);
}
