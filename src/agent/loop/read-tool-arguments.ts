// Turns a model's arguments text into the `{ operation, parameters }` a tool call is asked with, read
// leniently (the governed call decides what is usable), and — when the text does not have the shape
// the loop promised the model — the caller-safe content that tells the model why. Unusable arguments
// are still passed on as they are, so the call is refused where every call is decided, never run.
import { parseArgumentsJson } from './parse-arguments-json.js';
import { INVALID_ARGUMENTS_CONTENT } from './tool-result-content.js';

export interface ToolArguments {
  readonly operation: string;
  /** The parameters as given: `{}` when absent, anything else as it came (refused unless an object). */
  readonly parameters: Record<string, unknown>;
  /** What the model is told when the arguments do not have the promised shape; null when they do. */
  readonly problem: string | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Never a usable call: it names no operation, so it is refused whatever the tool (and never run). */
const UNUSABLE = (problem: string): ToolArguments => ({ operation: '', parameters: {}, problem });

export function readToolArguments(text: string): ToolArguments {
  const parsed = parseArgumentsJson(text);
  if (!parsed.ok) return UNUSABLE(INVALID_ARGUMENTS_CONTENT.notJson);
  if (!isPlainObject(parsed.value)) return UNUSABLE(INVALID_ARGUMENTS_CONTENT.notObject);
  const { operation, parameters } = parsed.value;
  const named = typeof operation === 'string' ? operation : '';
  if (parameters === undefined || parameters === null) return { operation: named, parameters: {}, problem: null };
  if (!isPlainObject(parameters)) return UNUSABLE(INVALID_ARGUMENTS_CONTENT.parametersNotObject);
  return { operation: named, parameters, problem: null };
}
