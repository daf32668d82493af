// A gate's `responseSchema` (DESIGN.md §13): the JSON Schema 2020-12 an Approve's payload must meet,
// checked when the definition is submitted and applied when a person decides. The schema is the
// workflow author's text, run on the main thread at decision time, so it is bounded: at most
// MAX_RESPONSE_SCHEMA_BYTES, and no regular expressions (`pattern`, `patternProperties`), which could
// backtrack for seconds on a crafted payload. Compiled once per distinct schema.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { LRUCache } from 'lru-cache';

export const MAX_RESPONSE_SCHEMA_BYTES = 16_384;
const MAX_VIOLATIONS = 5;

const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
const compiled = new LRUCache<string, ValidateFunction>({ max: 256 });

/** Why a schema cannot be used, or null when it can. */
export function responseSchemaProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'must be a JSON Schema object';
  const text = JSON.stringify(schema);
  if (Buffer.byteLength(text, 'utf8') > MAX_RESPONSE_SCHEMA_BYTES) return `must be at most ${MAX_RESPONSE_SCHEMA_BYTES} bytes as JSON`;
  if (usesRegex(schema)) return 'may not use pattern or patternProperties';
  try {
    compile(text, schema);
    return null;
  } catch (error) {
    return `is not a valid JSON Schema 2020-12 (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})`;
  }
}

/** The payload's violations of `schema` (at most five, each naming where), or [] when it conforms. */
export function responseViolations(schema: Readonly<Record<string, unknown>>, payload: unknown): string[] {
  const validate = compile(JSON.stringify(schema), schema);
  if (validate(payload)) return [];
  return (validate.errors ?? []).slice(0, MAX_VIOLATIONS).map((error) => `${error.instancePath === '' ? 'payload' : `payload${error.instancePath}`} ${error.message ?? 'is invalid'}`);
}

function compile(text: string, schema: object): ValidateFunction {
  let validate = compiled.get(text);
  if (validate === undefined) {
    validate = ajv.compile(structuredClone(schema));
    compiled.set(text, validate);
  }
  return validate;
}

function usesRegex(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      // `pattern` is a keyword where its value is text (a property called pattern holds a schema).
      if ((key === 'pattern' && typeof child === 'string') || key === 'patternProperties') return true;
      pending.push(child);
    }
  }
  return false;
}
