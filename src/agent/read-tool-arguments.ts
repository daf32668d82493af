// Turns a model's arguments text into `{ operation, parameters }` for one tool, or the caller-safe
// content that tells the model why the call could not be run. Schema validation of `parameters` is
// the caller's (executeTool); this only checks the shape the loop promised the model.
import { parseArgumentsJson } from './parse-arguments-json.js';
import { INVALID_ARGUMENTS_CONTENT } from './tool-result-content.js';

export type ToolArguments =
  | { readonly ok: true; readonly operation: string; readonly parameters: Record<string, unknown> }
  | { readonly ok: false; readonly content: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readToolArguments(text: string, operations: readonly string[]): ToolArguments {
  const parsed = parseArgumentsJson(text);
  if (!parsed.ok) return { ok: false, content: INVALID_ARGUMENTS_CONTENT.notJson };
  if (!isPlainObject(parsed.value)) return { ok: false, content: INVALID_ARGUMENTS_CONTENT.notObject };
  const { operation, parameters } = parsed.value;
  if (typeof operation !== 'string' || !operations.includes(operation)) {
    return { ok: false, content: INVALID_ARGUMENTS_CONTENT.operation(operations) };
  }
  if (parameters === undefined || parameters === null) return { ok: true, operation, parameters: {} };
  if (!isPlainObject(parameters)) return { ok: false, content: INVALID_ARGUMENTS_CONTENT.parametersNotObject };
  return { ok: true, operation, parameters };
}
