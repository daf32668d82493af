// Maps an operation's parameter JSON Schema to the Cedar type policies see it as (DESIGN §18):
// objects with `properties` → records (required properties required), string → String, integer →
// Long, other numbers → decimal, boolean → Boolean, array → Set of its items. Anything else maps to
// nothing and its property is left out, so no policy can read it: free-form objects, alternatives
// (oneOf/anyOf/allOf, $ref), a missing or a list `type`, null, arrays of such items, anything nested
// deeper than §10's cap, and property names starting with `__` (Cedar reads `__entity`/`__extn` in a
// record as an entity or extension value, not as data).
import type { JsonSchema } from '../tools/tool.js';
import type { CedarAttribute, CedarRecordType, CedarType } from './cedar-schema-types.js';
import { MAX_ARGUMENT_DEPTH } from './policy-bounds.js';

const ALTERNATIVES = ['oneOf', 'anyOf', 'allOf', '$ref', '$dynamicRef'] as const;
const EMPTY_RECORD: CedarRecordType = { type: 'Record', attributes: {} };

/** The Cedar type of an operation's `arguments`: its parameters as a record (empty when they do not map). */
export function argumentsTypeOf(parameters: JsonSchema): CedarRecordType {
  const type = cedarTypeOf(parameters, 1);
  return type?.type === 'Record' ? type : EMPTY_RECORD;
}

/** The Cedar type of a value at `depth` (the arguments object is depth 1), or null when it does not map. */
export function cedarTypeOf(schema: unknown, depth: number): CedarType | null {
  if (depth > MAX_ARGUMENT_DEPTH || !isSchemaObject(schema)) return null;
  if (ALTERNATIVES.some((keyword) => keyword in schema)) return null;
  switch (schema['type']) {
    case 'string':
      return { type: 'String' };
    case 'integer':
      return { type: 'Long' };
    case 'number':
      return { type: 'Extension', name: 'decimal' };
    case 'boolean':
      return { type: 'Boolean' };
    case 'array':
      return setTypeOf(schema['items'], depth);
    case 'object':
      return recordTypeOf(schema, depth);
    default:
      return null;
  }
}

function setTypeOf(items: unknown, depth: number): CedarType | null {
  const element = cedarTypeOf(items, depth + 1);
  return element === null ? null : { type: 'Set', element };
}

function recordTypeOf(schema: Readonly<Record<string, unknown>>, depth: number): CedarRecordType | null {
  const properties = schema['properties'];
  if (!isSchemaObject(properties)) return null;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((name) => typeof name === 'string') : []);
  const attributes: [string, CedarAttribute][] = [];
  for (const name of Object.keys(properties).sort()) {
    if (name.startsWith('__')) continue;
    const type = cedarTypeOf(properties[name], depth + 1);
    if (type !== null) attributes.push([name, { ...type, required: required.has(name) }]);
  }
  return { type: 'Record', attributes: Object.fromEntries(attributes) };
}

function isSchemaObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
