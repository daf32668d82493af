// JSON body parsing with a nesting-depth cap checked in one linear scan BEFORE parsing, so a
// 10,000-deep body is a 400, never a stack overflow; prototype poisoning keys are refused.
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

/** An empty body parses as "no body": routes that need one refuse it through their schema. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ProblemError('validation-failed', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (cause) {
    throw new ProblemError('validation-failed', 'The request body is not valid JSON.', { cause });
  }
}
