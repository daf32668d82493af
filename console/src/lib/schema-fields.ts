// Derives form fields from an operation's parameter JSON Schema (an object schema), and turns the
// entered values back into a `parameters` object. Strings, numbers, integers, booleans and enums get
// their own inputs; anything else (objects, arrays, `any`, unions) is entered as JSON. A string is
// one line unless it is long-form (isLongForm, decision 2703).

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface Field {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description: string;
  readonly options: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  /** A long-form string (a text area rather than a one-line input); false for every other kind. */
  readonly multiline: boolean;
}

type Schema = Record<string, unknown>;

export function fieldsOf(schema: unknown): Field[] {
  const object = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  const properties = (typeof object.properties === 'object' && object.properties !== null ? object.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(object.required) ? (object.required as unknown[]).filter((name): name is string => typeof name === 'string') : []);
  return Object.entries(properties).map(([name, raw]) => {
    const property = (typeof raw === 'object' && raw !== null ? raw : {}) as Schema;
    const numeric = (key: string) => (typeof property[key] === 'number' ? { [key]: property[key] } : {});
    const kind = kindOf(property);
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof property.description === 'string' ? property.description : '',
      options: Array.isArray(property.enum) ? property.enum.map(String) : [],
      ...numeric('minimum'),
      ...numeric('maximum'),
      ...numeric('maxLength'),
      multiline: kind === 'string' && isLongForm(name, property),
    };
  });
}

/** The longest `maxLength` still entered on one line: a long URL, expression or header value fits. */
export const ONE_LINE_MAX_LENGTH = 4096;

/** Last words of a property name that by convention holds prose or a document (`systemPrompt`, `file_content`). */
const LONG_FORM_NAMES = new Set(['text', 'content', 'body', 'prompt', 'message', 'description', 'markdown', 'html', 'code', 'script', 'template']);

/**
 * Whether a string property is long-form, the schema first: a `contentMediaType` says it carries a
 * document (yes); a `format` names a one-line token such as a date-time, URI or email (no); a
 * `maxLength` above ONE_LINE_MAX_LENGTH (yes) or at most it (no). Only a schema silent on all three
 * falls back to the property's name, so that an MCP tool's bare `content` keeps its line breaks.
 */
export function isLongForm(name: string, property: Readonly<Record<string, unknown>>): boolean {
  if (typeof property.contentMediaType === 'string') return true;
  if (typeof property.format === 'string') return false;
  if (typeof property.maxLength === 'number') return property.maxLength > ONE_LINE_MAX_LENGTH;
  const words = name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/u).filter((word) => word !== '');
  return LONG_FORM_NAMES.has(words.at(-1)?.toLowerCase() ?? '');
}

function kindOf(property: Schema): FieldKind {
  if (Array.isArray(property.enum) && property.enum.every((value) => typeof value === 'string')) return 'enum';
  switch (property.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return property.type;
    default:
      return 'json';
  }
}

/**
 * The fields of an object schema whose every property has an input of its own (string, number,
 * integer, boolean, enum); null when the schema is anything else and is better entered as JSON.
 */
export function simpleFieldsOf(schema: unknown): Field[] | null {
  const object = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  if (object.type !== 'object') return null;
  const fields = fieldsOf(object);
  return fields.length > 0 && fields.every((field) => field.kind !== 'json') ? fields : null;
}

export type FieldValues = Readonly<Record<string, string | boolean>>;

/**
 * The parameters object, or the first field whose value cannot be read. Empty optional fields are
 * left out; so are empty required ones with `checkRequired: false`, leaving the verdict to the server.
 */
export function parametersOf(
  fields: readonly Field[],
  values: FieldValues,
  { checkRequired = true }: { checkRequired?: boolean } = {},
): { ok: true; parameters: Record<string, unknown> } | { ok: false; field: string; message: string } {
  const parameters: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value === true || field.required) parameters[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '' && field.kind !== 'string') {
      if (field.required && checkRequired) return { ok: false, field: field.name, message: 'is required' };
      continue;
    }
    if (text === '' && field.kind === 'string') {
      if (field.required && checkRequired) return { ok: false, field: field.name, message: 'is required' };
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.kind === 'integer' && !Number.isInteger(number))) return { ok: false, field: field.name, message: `must be ${field.kind === 'integer' ? 'an integer' : 'a number'}` };
      parameters[field.name] = number;
    } else if (field.kind === 'json') {
      try {
        parameters[field.name] = JSON.parse(text) as unknown;
      } catch {
        return { ok: false, field: field.name, message: 'must be JSON' };
      }
    } else {
      parameters[field.name] = text;
    }
  }
  return { ok: true, parameters };
}
