// Reads one case of a dataset (DESIGN.md §7): `id`, `tags`, `input` or `messages`, `assert`, and the
// optional per-case `timeoutSeconds`; a case made from a run (§19) also has `agent` (the bundle's id)
// and its `recording`, and then `assert` defaults to `matches-recording`. Throws InvalidField at the
// first problem.
import type { SchemaCompiler } from '../assertions/schema-compiler.js';
import { readAssertion } from '../assertions/read-assertion.js';
import type { EvalCase } from './dataset.js';
import { optionalPositiveNumber, optionalString, optionalTextList, refuseUnknownKeys, requireObject, type Fields } from './fields.js';
import { InvalidField } from './invalid-field.js';
import { readRecording } from '../recording/read-recording.js';

export const MAX_CASE_ID_LENGTH = 200;
export const MAX_TIMEOUT_SECONDS = 3600;
const CASE_KEYS = ['id', 'description', 'tags', 'input', 'messages', 'assert', 'timeoutSeconds', 'agent', 'recording'];
/** What a recorded case checks when it names nothing else (DESIGN §19). */
const RECORDED_DEFAULT = [{ type: 'matches-recording' }];

export interface CaseDefaults {
  readonly id: string;
  readonly timeoutMs: number;
  readonly compileSchema: SchemaCompiler;
  readonly maxAssertionsPerCase: number;
}

export function readCase(raw: unknown, defaults: CaseDefaults): EvalCase {
  const fields = requireObject(raw, 'the case');
  refuseUnknownKeys(fields, CASE_KEYS, 'the case');
  optionalString(fields, 'description', '');
  const timeoutSeconds = optionalPositiveNumber(fields, 'timeoutSeconds', '', MAX_TIMEOUT_SECONDS);
  const agent = optionalString(fields, 'agent', '');
  const recording = fields.recording === undefined || fields.recording === null ? undefined : readRecording(fields.recording);
  const assertions = fields.assert === undefined && recording !== undefined ? RECORDED_DEFAULT : fields.assert;
  return {
    id: readId(fields) ?? defaults.id,
    tags: [...new Set(optionalTextList(fields, 'tags', '') ?? [])],
    messages: readMessages(fields),
    assertions: readAssertions(assertions, defaults),
    timeoutMs: timeoutSeconds === undefined ? defaults.timeoutMs : Math.round(timeoutSeconds * 1000),
    ...(agent === undefined ? {} : { agent }),
    ...(recording === undefined ? {} : { recording }),
  };
}

/** The case's own id, when it has one (used to name the case in errors before the rest is read). */
export function readId(fields: Fields): string | undefined {
  const id = optionalString(fields, 'id', '');
  if (id === undefined) return undefined;
  const trimmed = id.trim();
  if (trimmed === '' || trimmed.length > MAX_CASE_ID_LENGTH) throw new InvalidField('id', `must be 1 to ${MAX_CASE_ID_LENGTH} characters`);
  return trimmed;
}

function readMessages(fields: Fields): string[] {
  const input = fields.input;
  const messages = optionalTextList(fields, 'messages', '');
  if (input !== undefined && messages !== undefined) throw new InvalidField('input', 'and messages are alternatives; give one');
  if (messages !== undefined) {
    if (messages.length === 0) throw new InvalidField('messages', 'must list at least one message');
    return messages;
  }
  if (typeof input !== 'string' || input.trim() === '') throw new InvalidField('input', 'must be a non-empty string (or give messages)');
  return [input];
}

function readAssertions(raw: unknown, defaults: CaseDefaults) {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new InvalidField('assert', 'must be a list of assertions');
  // Every assertion is judged and its result kept once per repeat: the count is bounded up front.
  if (raw.length > defaults.maxAssertionsPerCase) throw new InvalidField('assert', `must list at most ${defaults.maxAssertionsPerCase} assertions`);
  return raw.map((entry, index) => readAssertion(entry, `assert[${index}]`, defaults.compileSchema));
}
