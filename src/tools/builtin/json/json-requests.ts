// Runs on the json tool's worker threads (json-worker.ts): JMESPath queries (the community
// implementation; a 260-character expression can run for seconds) and JSON Schema validation (a schema
// `pattern` can backtrack catastrophically). Each schema compiles in a fresh Ajv instance (no `$id`
// clashes between calls, no cache that grows forever) after one long-lived instance checked it against
// the meta-schema, and remote `$ref`s are never loaded: an unresolvable reference is a schema error.
import { search, type JSONValue } from '@jmespath-community/jmespath';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajvOptions = { allErrors: true, strict: false, logger: false } as const;
const metaSchemaChecker = new Ajv2020(ajvOptions);
// Compiles the meta-schema once, here, rather than inside the first request's time bound.
void metaSchemaChecker.validateSchema({});

export interface QueryRequest {
  readonly op: 'query';
  readonly data: unknown;
  readonly expression: string;
  readonly maxResultChars: number;
}

export interface ValidateRequest {
  readonly op: 'validate';
  readonly data: unknown;
  readonly schema: unknown;
  readonly maxErrors: number;
}

export interface ReportedSchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: ErrorObject['params'];
}

export type ValidateReply = { readonly schemaError: string } | { readonly valid: boolean; readonly errors: readonly ReportedSchemaError[] };

/** JSON text of `value`, refused once it grows past `limit` characters (checked while serializing). */
function serialize(value: unknown, limit: number): string {
  const tooLarge = (): Error => new Error(`the result is larger than ${limit} characters of JSON`);
  let budget = limit;
  const text = JSON.stringify(value === undefined ? null : value, (key, item: unknown) => {
    budget -= key.length + (typeof item === 'string' ? item.length : 1);
    if (budget < 0) throw tooLarge();
    return item;
  });
  if (text.length > limit) throw tooLarge();
  return text;
}

function validate(request: ValidateRequest): ValidateReply {
  let check;
  try {
    if (!metaSchemaChecker.validateSchema(request.schema as object)) {
      return { schemaError: metaSchemaChecker.errorsText(metaSchemaChecker.errors, { dataVar: 'schema' }) };
    }
    const ajv = new Ajv2020({ ...ajvOptions, meta: false, validateSchema: false, addUsedSchema: false });
    addFormats(ajv);
    check = ajv.compile(request.schema as object);
  } catch (error) {
    return { schemaError: error instanceof Error ? error.message : String(error) };
  }
  const valid = check(request.data);
  const errors = (check.errors ?? []).slice(0, request.maxErrors).map((error) => ({
    instancePath: error.instancePath,
    keyword: error.keyword,
    message: error.message ?? 'is invalid',
    params: error.params,
  }));
  return { valid, errors };
}

export function handle(request: unknown): unknown {
  const typed = request as QueryRequest | ValidateRequest;
  if (typed.op === 'query') return serialize(search(typed.data as JSONValue, typed.expression), typed.maxResultChars);
  if (typed.op === 'validate') return validate(typed);
  throw new Error('unknown request');
}
