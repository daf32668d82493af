// Reads one `assert` entry of a dataset case into an Assertion, compiling what can be compiled up
// front (regex, JSON Schema) to check it, so a broken assertion is a dataset error at start, never a
// run failure. The Assertion keeps the source (plain data); checking compiles it again (cached).
import { InvalidField } from '../datasets/invalid-field.js';
import { isObject, refuseUnknownKeys, requireObject, requiredText } from '../datasets/fields.js';
import { ASSERTION_TYPES, type Assertion, type AssertionType, type Severity } from './assertion.js';
import type { SchemaCompiler } from './schema-compiler.js';

const MAX_PATTERN_LENGTH = 1024;
const NUMERIC_MAX = 1e12;

export function readAssertion(raw: unknown, path: string, compileSchema: SchemaCompiler): Assertion {
  const fields = requireObject(raw, path);
  refuseUnknownKeys(fields, ['type', 'value', 'severity', 'flags'], path);
  const type = fields.type;
  if (typeof type !== 'string' || !(ASSERTION_TYPES as readonly string[]).includes(type)) {
    throw new InvalidField(`${path}.type`, `must be one of: ${ASSERTION_TYPES.join(', ')}`);
  }
  const severity = readSeverity(fields.severity, `${path}.severity`);
  if (fields.flags !== undefined && type !== 'regex') throw new InvalidField(`${path}.flags`, 'is only allowed on a regex assertion');
  return { severity, ...readTyped(type as AssertionType, fields, `${path}.value`, compileSchema) } as Assertion;
}

function readSeverity(raw: unknown, path: string): Severity {
  if (raw === undefined || raw === null || raw === 'error') return 'error';
  if (raw === 'warn') return 'warn';
  throw new InvalidField(path, "must be 'error' or 'warn'");
}

function readTyped(type: AssertionType, fields: Readonly<Record<string, unknown>>, path: string, compileSchema: SchemaCompiler): object {
  const value = fields.value;
  switch (type) {
    case 'equals':
      if (value === undefined) throw new InvalidField(path, 'is required');
      return { type, value };
    case 'contains':
    case 'icontains':
    case 'not-contains':
    case 'tool-called':
    case 'llm-rubric':
      return { type, value: requiredText(value, path) };
    case 'regex':
      return { type, ...readPattern(value, fields.flags, path) };
    case 'is-json':
    case 'matches-recording':
      if (value !== undefined) throw new InvalidField(path, `is not used by ${type}`);
      return { type };
    case 'json-schema':
      readSchema(value, path, compileSchema);
      return { type, schema: value };
    case 'max-latency-ms':
    case 'max-cost-usd':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > NUMERIC_MAX) {
        throw new InvalidField(path, 'must be a number ≥ 0');
      }
      return { type, value };
  }
}

function readPattern(value: unknown, flags: unknown, path: string): { value: string; flags: string } {
  const source = requiredText(value, path);
  if (source.length > MAX_PATTERN_LENGTH) throw new InvalidField(path, `must be at most ${MAX_PATTERN_LENGTH} characters`);
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags))) {
    throw new InvalidField(path.replace(/value$/, 'flags'), "may only combine the flags 'i', 'm', 's' and 'u'");
  }
  const checked = typeof flags === 'string' ? flags : '';
  try {
    new RegExp(source, checked);
    return { value: source, flags: checked };
  } catch {
    throw new InvalidField(path, 'is not a valid regular expression');
  }
}

function readSchema(value: unknown, path: string, compileSchema: SchemaCompiler) {
  if (!isObject(value) && typeof value !== 'boolean') throw new InvalidField(path, 'must be a JSON Schema object');
  try {
    return compileSchema(value);
  } catch {
    throw new InvalidField(path, 'is not a valid JSON Schema');
  }
}
