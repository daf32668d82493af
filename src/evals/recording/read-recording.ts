// Reads a case's `recording` (DESIGN §19) as GET shows it and PUT accepts it: `{ steps: [...] }`, each
// step a model answer `{ model: { text, toolCalls: [{ tool, operation, arguments }] } }` or a tool call
// `{ tool, operation, arguments, result, isError }`. Throws InvalidField naming the step and field.
import { isObject, refuseUnknownKeys, requireObject } from '../datasets/fields.js';
import { InvalidField } from '../datasets/invalid-field.js';
import type { RecordedToolCall, Recording, RecordingStep } from './recording.js';

/** Steps a recording may hold: a run's model calls and tool calls together, with room to spare. */
export const MAX_RECORDING_STEPS = 2000;

export function readRecording(raw: unknown, path = 'recording'): Recording {
  const fields = requireObject(raw, path);
  refuseUnknownKeys(fields, ['steps'], path);
  const steps = fields.steps;
  if (!Array.isArray(steps) || steps.length === 0) throw new InvalidField(`${path}.steps`, 'must list at least one step');
  if (steps.length > MAX_RECORDING_STEPS) throw new InvalidField(`${path}.steps`, `must list at most ${MAX_RECORDING_STEPS} steps`);
  return { steps: steps.map((step, index) => readStep(step, `${path}.steps[${index}]`)) };
}

function readStep(raw: unknown, path: string): RecordingStep {
  const fields = requireObject(raw, path);
  if ('model' in fields) {
    refuseUnknownKeys(fields, ['model'], path);
    const model = requireObject(fields.model, `${path}.model`);
    refuseUnknownKeys(model, ['text', 'toolCalls'], `${path}.model`);
    if (typeof model.text !== 'string') throw new InvalidField(`${path}.model.text`, 'must be a string');
    const calls = model.toolCalls ?? [];
    if (!Array.isArray(calls)) throw new InvalidField(`${path}.model.toolCalls`, 'must be a list of tool calls');
    return { model: { text: model.text, toolCalls: calls.map((call, index) => readCall(call, `${path}.model.toolCalls[${index}]`, [])) } };
  }
  const call = readCall(fields, path, ['result', 'isError']);
  if (typeof fields.result !== 'string') throw new InvalidField(`${path}.result`, 'must be a string');
  if (typeof fields.isError !== 'boolean') throw new InvalidField(`${path}.isError`, 'must be true or false');
  return { ...call, result: fields.result, isError: fields.isError };
}

function readCall(raw: unknown, path: string, more: readonly string[]): RecordedToolCall {
  const fields = requireObject(raw, path);
  refuseUnknownKeys(fields, ['tool', 'operation', 'arguments', ...more], path);
  if (typeof fields.tool !== 'string' || fields.tool === '') throw new InvalidField(`${path}.tool`, 'must be a tool name');
  if (typeof fields.operation !== 'string') throw new InvalidField(`${path}.operation`, 'must be a string');
  if (!isObject(fields.arguments)) throw new InvalidField(`${path}.arguments`, 'must be an object');
  return { tool: fields.tool, operation: fields.operation, arguments: fields.arguments };
}
