// The official Cedar engine, @cedar-policy/cedar-wasm, in its Node build (synchronous WebAssembly,
// CommonJS). Imported when a policy set is first loaded, so a service without policies never pays for
// its 4 MB module (as decision 3602 does for the MCP client and provider SDKs).
import type * as CedarWasm from '@cedar-policy/cedar-wasm/nodejs';
import type { Schema } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicySchema } from './cedar-schema-types.js';

export type Cedar = typeof CedarWasm;

export async function loadCedar(): Promise<Cedar> {
  return import('@cedar-policy/cedar-wasm/nodejs');
}

/** Our schema is Cedar's JSON schema format; the package types it as a string-indexed map of namespaces. */
export function asCedarSchema(schema: PolicySchema): Schema {
  return schema as unknown as Schema;
}
