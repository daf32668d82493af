// fast-check arbitraries derived from the JSON Schema subset the OpenAPI document uses ($ref, enum,
// const, anyOf/oneOf, type unions, strings with length/pattern/format, integers and numbers with
// bounds, arrays with item counts and uniqueness, objects with required, optional and additional
// properties, and `{}` for any JSON). Sizes are kept small on purpose: this feeds a fuzzer whose
// runtime must stay modest. `mutated` turns a value into one the schema most likely refuses.
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;
export type Resolve = (ref: string) => JsonSchema;

const SPAN = 24;

export function arbitraryOf(schema: JsonSchema, resolve: Resolve, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return arbitraryOf(resolve(schema.$ref), resolve, depth);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return fc.oneof(...union.map((member) => arbitraryOf(member, resolve, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf({ ...schema, type }, resolve, depth)));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: num(schema.minimum, -1000), max: num(schema.maximum, 1000) });
    case 'number': {
      const min = num(schema.minimum ?? schema.exclusiveMinimum, -1000);
      const max = num(schema.maximum ?? schema.exclusiveMaximum, 1000);
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: 'exclusiveMinimum' in schema, maxExcluded: 'exclusiveMaximum' in schema });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(schema, resolve, depth);
    case 'object':
      return objectOf(schema, resolve, depth);
    default:
      return fc.jsonValue({ maxDepth: depth > 2 ? 0 : 2 });
  }
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength, 0);
  const maxLength = Math.min(num(schema.maxLength, minLength + SPAN), minLength + SPAN);
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  if (schema.format === 'uuid') return fc.uuid();
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const fits = (s: string) => s.length >= minLength && s.length <= num(schema.maxLength, Infinity);
    try {
      return fc.stringMatching(pattern).filter(fits);
    } catch {
      // fast-check cannot generate from every pattern (lookahead): the schema's examples, else chance.
      const examples = Array.isArray(schema.examples) ? (schema.examples as string[]) : [];
      return examples.length > 0 ? fc.constantFrom(...examples) : fc.string({ minLength, maxLength }).filter((s) => pattern.test(s) && fits(s));
    }
  }
  // Full-unicode strings now and then: limits and escaping meet real text, not ASCII only.
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
}

function arrayOf(schema: JsonSchema, resolve: Resolve, depth: number): fc.Arbitrary<unknown[]> {
  const minLength = num(schema.minItems, 0);
  const maxLength = Math.min(num(schema.maxItems, minLength + 3), minLength + 3);
  const items = arbitraryOf((schema.items as JsonSchema | undefined) ?? {}, resolve, depth + 1);
  return schema.uniqueItems === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
    : fc.array(items, { minLength, maxLength });
}

function objectOf(schema: JsonSchema, resolve: Resolve, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, resolve, depth + 1)])),
    { requiredKeys: required.filter((name) => name in properties) },
  );
  const extra = schema.additionalProperties;
  if (extra === false || extra === undefined || depth > 2) return record;
  const values = extra === true ? fc.jsonValue({ maxDepth: 1 }) : arbitraryOf(extra as JsonSchema, resolve, depth + 1);
  const keys = fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !(key in properties) && key !== '__proto__');
  return fc.tuple(record, fc.dictionary(keys, values, { maxKeys: 2 })).map(([known, more]) => ({ ...more, ...known }));
}

/** A value derived from `value` that the schema most likely refuses (wrong type, dropped or unknown field, out of range). */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 4 }), fc.constant([]), fc.constant({}), fc.constant(-1), fc.constant(''));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return wrong;
  const keys = Object.keys(value);
  const choices: Array<fc.Arbitrary<unknown>> = [
    fc.string({ minLength: 1, maxLength: 6 }).map((key) => ({ ...value, [`x_${key}`]: true })),
    wrong,
  ];
  if (keys.length > 0) {
    choices.push(fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))));
    choices.push(fc.tuple(fc.constantFrom(...keys), wrong).map(([key, bad]) => ({ ...value, [key]: bad })));
  }
  return fc.oneof(...choices);
}
