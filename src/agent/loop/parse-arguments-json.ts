// Parses a model's tool-call arguments text. Prototype-poisoning keys are dropped, never honoured;
// an empty text counts as `{}` (some providers send "" for a call without arguments).
import secureJsonParse from 'secure-json-parse';

export type ParsedArgumentsJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

export function parseArgumentsJson(text: string): ParsedArgumentsJson {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = secureJsonParse.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}
