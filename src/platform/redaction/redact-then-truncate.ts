// Redacts first, then cuts to a UTF-8 byte budget, so a secret straddling the cut can never be half
// shown: the result is always a prefix of the redacted text and never splits a code point.
import { redactText } from './redact-text.js';

export interface TruncatedText {
  readonly text: string;
  /** True exactly when the redacted text was longer than the budget. */
  readonly truncated: boolean;
}

export function redactThenTruncate(text: string, maxBytes: number): TruncatedText {
  if (!(maxBytes >= 0)) throw new RangeError('maxBytes must be a non-negative number');
  const redacted = redactText(text);
  const end = utf8PrefixLength(redacted, Math.floor(maxBytes));
  return { text: redacted.slice(0, end), truncated: end < redacted.length };
}

/** Length in UTF-16 units of the longest prefix that encodes to at most `budget` UTF-8 bytes. */
function utf8PrefixLength(text: string, budget: number): number {
  if (text.length <= budget / 3) return text.length;
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1));
    // A lone surrogate is written as U+FFFD, three bytes.
    const size = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (bytes + size > budget) break;
    bytes += size;
    index += pair ? 2 : 1;
  }
  return index;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
