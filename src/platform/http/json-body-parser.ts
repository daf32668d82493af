// JSON body parsing with a nesting-depth cap checked in one linear scan BEFORE parsing, so a
// 10,000-deep body is a 400, never a stack overflow; prototype poisoning keys are refused, and said
// so. Bytes that are not text are refused too: invalid UTF-8 (never stored as U+FFFD) and lone
// surrogates written as \u escapes (never echoed back).
import secureJsonParse from 'secure-json-parse';
import { ProblemError } from '../problems/index.js';

export const MAX_JSON_DEPTH = 64;

/** Deepest array/object nesting of a JSON text, ignoring brackets inside strings. */
export function jsonDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return max;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A `\uD800`–`\uDFFF` escape: the only way a lone surrogate gets past strict UTF-8 decoding. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** An empty body parses as "no body": routes that need one refuse it through their schema. */
export function parseJsonBody(body: string | Buffer): unknown {
  const text = typeof body === 'string' ? body : decodeUtf8(body);
  if (text.trim() === '') return undefined;
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ProblemError('validation-failed', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (cause) {
    if (cause instanceof SyntaxError && cause.message.includes('forbidden prototype property')) {
      throw new ProblemError('validation-failed', 'The JSON body has a "__proto__" key (or "constructor" with "prototype"); such keys are refused.', { cause });
    }
    throw new ProblemError('validation-failed', 'The request body is not valid JSON.', { cause });
  }
  if (SURROGATE_ESCAPE.test(text) && hasLoneSurrogate(value)) {
    throw new ProblemError('validation-failed', 'The JSON body has a string with a lone surrogate (an unpaired \\uD800–\\uDFFF escape); it is not text.');
  }
  return value;
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch (cause) {
    throw new ProblemError('validation-failed', 'The request body is not valid UTF-8.', { cause });
  }
}

/** Whether any string or key of a parsed JSON value holds an unpaired surrogate; iterative. */
function hasLoneSurrogate(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (LONE_SURROGATE.test(next)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (LONE_SURROGATE.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
