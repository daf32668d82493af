// Rewrites a response schema into an equivalent one that fast-json-stringify serializes without ajv:
// it checks `anyOf` branches by validating the value against each of them on every response (date-
// time formats included), but handles a `type` list natively. So `anyOf: [X, null]` with a plainly
// typed X becomes X with `type: [X.type, 'null']`, and an `anyOf` of string constants becomes one
// string type. The output bytes are the same; the original schemas (request validation, the OpenAPI
// document) are never touched: this works on a copy, for serialization only.

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A branch that can take a `type` list: one plain type, no combinator, reference or constant. */
function plainlyTyped(branch: Schema): boolean {
  return (
    typeof branch['type'] === 'string' &&
    branch['type'] !== 'null' &&
    !['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'const', 'enum', 'if'].some((key) => key in branch)
  );
}

const isNull = (branch: Schema): boolean => branch['type'] === 'null' && Object.keys(branch).every((key) => key === 'type' || key === 'description');

function collapse(node: Schema): Schema {
  const branches = node['anyOf'];
  if (!Array.isArray(branches) || !branches.every(isSchema)) return node;
  const { anyOf: _anyOf, ...siblings } = node;
  if (branches.length === 2) {
    const nullAt = branches.findIndex(isNull);
    const other = branches[1 - nullAt];
    if (nullAt !== -1 && other !== undefined && plainlyTyped(other)) return { ...siblings, ...other, type: [other['type'], 'null'] };
  }
  if (branches.length > 0 && branches.every((branch) => branch['type'] === 'string' && typeof branch['const'] === 'string')) {
    return { ...siblings, type: 'string' };
  }
  return node;
}

export function serializationSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(serializationSchema) as T;
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = serializationSchema(value);
  return collapse(copy) as T;
}
