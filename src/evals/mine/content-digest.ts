// What "content equal to the latest version" compares (DESIGN.md §19): SHA-256 of the dataset object
// in a canonical JSON form — object keys sorted, no whitespace — so the same dataset sent with its keys
// in another order or pretty-printed is the same content. Array order, string text and number values
// count (a JSON number is compared as the value it parses to: 1 and 1.0 are equal).
import { createHash } from 'node:crypto';

export function contentDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
