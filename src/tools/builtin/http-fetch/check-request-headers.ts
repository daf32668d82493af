// Which caller headers `http_fetch` sends. Refused: headers that change framing, connection or
// routing (a caller must not override Host, which the pinned connection relies on, or smuggle a
// body), proxy headers, `Cookie` (the tool keeps no session and is read-only in spirit) and
// `Accept-Encoding` (bodies are returned as received, never decompressed). Everything else is
// passed through, bounded; `Authorization` is dropped when a redirect leaves the origin.
import { httpFetchLimits } from './http-fetch-limits.js';

const refused = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'content-encoding',
  'expect',
  'cookie',
  'accept-encoding',
]);
const namePattern = new RegExp(httpFetchLimits.headerNamePattern);
// Field values: visible ASCII, space, tab and obs-text; never CR, LF or NUL.
const valuePattern = /^[\t\x20-\x7e\x80-\xff]*$/;

export type CheckedHeaders =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly error: string };

export function checkRequestHeaders(input: unknown): CheckedHeaders {
  if (input === undefined) return { ok: true, headers: {} };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'headers must be an object of strings.' };
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > httpFetchLimits.maxRequestHeaders) {
    return { ok: false, error: `At most ${httpFetchLimits.maxRequestHeaders} headers may be sent.` };
  }
  const headers = new Map<string, string>();
  let bytes = 0;
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!namePattern.test(name) || name.length > httpFetchLimits.maxHeaderNameLength) return { ok: false, error: `Invalid header name "${name.slice(0, 64)}".` };
    if (refused.has(lower) || lower.startsWith('proxy-')) return { ok: false, error: `The header "${name}" cannot be set.` };
    if (typeof value !== 'string' || value.length > httpFetchLimits.maxHeaderValueLength || !valuePattern.test(value)) {
      return { ok: false, error: `Invalid value for header "${name}".` };
    }
    if (headers.has(lower)) return { ok: false, error: `The header "${name}" is given twice.` };
    headers.set(lower, value);
    bytes += name.length + value.length;
  }
  if (bytes > httpFetchLimits.maxRequestHeaderBytes) {
    return { ok: false, error: `Headers may total at most ${httpFetchLimits.maxRequestHeaderBytes} bytes.` };
  }
  return { ok: true, headers: Object.fromEntries(headers) };
}
