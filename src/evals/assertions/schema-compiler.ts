// Compiles `json-schema` assertion schemas (draft 2020-12, ajv, formats from ajv-formats, non-strict).
// One compiler per dataset; schemas are not registered by $id, so two cases may reuse an id.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

export type SchemaCompiler = (schema: unknown) => ValidateFunction;

export function createSchemaCompiler(): SchemaCompiler {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, addUsedSchema: false });
  addFormats(ajv);
  return (schema) => ajv.compile(schema as object);
}
