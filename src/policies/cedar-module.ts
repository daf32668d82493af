// The official Cedar engine, @cedar-policy/cedar-wasm, in its Node build (synchronous WebAssembly,
// CommonJS). Imported when a policy set is first loaded, so a service without policies never pays for
// its 4 MB module (as decision 3602 does for the MCP client and provider SDKs).
//
// Before it loads, TurboFan's inlining of JavaScript→WebAssembly calls is turned off for the process:
// with it, Node 20's V8 dies ("Fatal error … unreachable code" in
// Deoptimizer::DoComputeBuiltinContinuation) when a function that inlined a Cedar call is deoptimized
// while that call is running, which `bench/policy-decision.mjs` reproduced every time (decision 3801).
// The cost is a regular call into WebAssembly instead of an inlined one.
import { setFlagsFromString } from 'node:v8';
import type * as CedarWasm from '@cedar-policy/cedar-wasm/nodejs';
import type { Schema } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicySchema } from './cedar-schema-types.js';

export type Cedar = typeof CedarWasm;

export async function loadCedar(): Promise<Cedar> {
  setFlagsFromString('--no-turbo-inline-js-wasm-calls');
  return import('@cedar-policy/cedar-wasm/nodejs');
}

/** Our schema is Cedar's JSON schema format; the package types it as a string-indexed map of namespaces. */
export function asCedarSchema(schema: PolicySchema): Schema {
  return schema as unknown as Schema;
}
