// The json tool's `validate` operation: `data` against a draft 2020-12 JSON Schema (ajv, all errors,
// formats from ajv-formats, non-strict), run on the json worker under its time bound. Answers
// { valid, errors: [{ path, message }] } with at most 50 errors; `path` is a JSON Pointer into data ("" is
// the root). Schemas that do not compile (bad keywords, unresolvable or remote $ref) fail the call.
import { toolFailure, toolSuccess, type ToolCallContext, type ToolResult } from '../../tool.js';
import type { WorkerPool } from '../../../platform/worker/index.js';
import { workerFailure } from '../worker-failure.js';
import { MAX_DATA_CHARACTERS, MAX_SCHEMA_CHARACTERS, MAX_VALIDATION_ERRORS } from './json-limits.js';
import { sanitizeErrorMessage } from './sanitize-error-message.js';
import { serializedLength } from './serialized-length.js';

interface WorkerError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Readonly<Record<string, unknown>>;
}

type WorkerVerdict = { readonly schemaError: string } | { readonly valid: boolean; readonly errors: readonly WorkerError[] };

/** Ajv's message, naming the offending property where ajv leaves it out ("must NOT have additional properties"). */
function toReportedError(error: WorkerError): { path: string; message: string } {
  const property = error.params['additionalProperty'] ?? error.params['unevaluatedProperty'];
  const message = typeof property === 'string' ? `${error.message}: ${JSON.stringify(property)}` : error.message;
  return { path: error.instancePath, message: sanitizeErrorMessage(message) };
}

export async function validateJson(
  pool: WorkerPool,
  parameters: Readonly<Record<string, unknown>>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { data, schema } = parameters;
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return toolFailure('schema must be a JSON Schema object or boolean');
  }
  const schemaLength = serializedLength(schema);
  if (schemaLength === undefined || schemaLength > MAX_SCHEMA_CHARACTERS) {
    return toolFailure(`schema must be JSON of at most ${MAX_SCHEMA_CHARACTERS} characters`);
  }
  const dataLength = serializedLength(data);
  if (dataLength === undefined) return toolFailure('data must be a JSON value');
  if (dataLength > MAX_DATA_CHARACTERS) return toolFailure(`data is larger than ${MAX_DATA_CHARACTERS} characters of JSON`);

  const outcome = await pool.run(context.ownerId, { op: 'validate', data, schema, maxErrors: MAX_VALIDATION_ERRORS }, context.signal);
  if (outcome.status === 'failed') return toolFailure(`validation failed: ${sanitizeErrorMessage(outcome.error)}`);
  if (outcome.status !== 'done') return workerFailure(outcome, 'validation');
  const verdict = outcome.value as WorkerVerdict;
  if ('schemaError' in verdict) return toolFailure(`invalid schema: ${sanitizeErrorMessage(verdict.schemaError)}`);
  return toolSuccess({ valid: verdict.valid, errors: verdict.errors.map(toReportedError) });
}
