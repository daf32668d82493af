// The compiled forms of `regex` and `json-schema` assertions, made from their stored source when a case
// is checked and kept in small caches (one dataset checks the same few assertions many times). Sources
// were validated when the dataset was read, so compiling them here does not fail.
import type { ValidateFunction } from 'ajv';
import { createSchemaCompiler } from './schema-compiler.js';

const MAX_CACHED = 256;
const patterns = new Map<string, RegExp>();
const schemas = new Map<string, ValidateFunction>();
const compile = createSchemaCompiler();

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
  }
  return value;
}

/** A fresh-state pattern (no `g` or `y` flag is ever accepted, so `test` keeps no position). */
export function compiledPattern(source: string, flags: string): RegExp {
  return remember(patterns, `${flags}/${source}`, () => new RegExp(source, flags));
}

export function compiledSchema(schema: unknown): ValidateFunction {
  return remember(schemas, JSON.stringify(schema), () => compile(schema));
}
