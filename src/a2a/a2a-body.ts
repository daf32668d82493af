// The A2A endpoint's body, read by its own parser (DESIGN §20): the platform's JSON rules (depth cap,
// no prototype keys, text only: json-body-parser.ts) with their refusals kept as JSON-RPC errors instead of
// problem documents — a body that is not JSON is the protocol's parse error, one JSON refuses to hold
// (too deep, a forbidden key, not text) an invalid request. Nothing is thrown, so the route answers.
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { parseJsonBody } from '../platform/http/index.js';
import { isProblemError } from '../platform/problems/index.js';
import type { RpcError } from './screen-request.js';

export type A2aBody = { readonly parsed: true; readonly value: unknown } | { readonly parsed: false; readonly error: RpcError };

/** Media types a JSON-RPC request may come as (A2A names its own beside JSON). */
export const A2A_BODY_TYPES = ['application/json', 'application/a2a+json'];

export function readA2aBody(bytes: Buffer): A2aBody {
  try {
    const value = parseJsonBody(bytes);
    if (value === undefined) return { parsed: false, error: { code: A2A_ERROR_CODE.INVALID_REQUEST, message: 'The body is empty: send one JSON-RPC request.' } };
    return { parsed: true, value };
  } catch (error) {
    const detail = isProblemError(error) ? error.detail : 'The request body is not valid JSON.';
    const notJson = detail === 'The request body is not valid JSON.';
    return { parsed: false, error: { code: notJson ? A2A_ERROR_CODE.PARSE_ERROR : A2A_ERROR_CODE.INVALID_REQUEST, message: detail } };
  }
}
