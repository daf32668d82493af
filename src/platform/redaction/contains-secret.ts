// Whether a value carries a detected secret anywhere: strings, object keys, Map and Set entries,
// Error messages, values whose key marks them secret. Used by the governor's data-classification
// check, so it fails closed: content nested deeper than MAX_REDACTION_DEPTH counts as a secret.
import { MAX_REDACTION_DEPTH } from './depth-limit.js';
import { scanSecrets } from './find-secret-matches.js';
import { isOpaque } from './opaque-value.js';
import { isSecretPair } from './secret-pair.js';
import { secretRules } from './secret-rules.js';

export function containsSecret(value: unknown): boolean {
  return visit(value, 1, new Set());
}

function visit(value: unknown, depth: number, seen: Set<object>): boolean {
  if (typeof value === 'string') return textHasSecret(value);
  if (typeof value !== 'object' || value === null || isOpaque(value) || seen.has(value)) return false;
  if (depth > MAX_REDACTION_DEPTH) return true;
  seen.add(value);
  const next = depth + 1;
  if (value instanceof URL) return textHasSecret(value.href);
  if (Array.isArray(value)) return (value as unknown[]).some((item) => visit(item, next, seen));
  if (value instanceof Set) return [...(value as Set<unknown>)].some((item) => visit(item, next, seen));
  const entries: [unknown, unknown][] =
    value instanceof Map
      ? [...(value as Map<unknown, unknown>)]
      : (value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value)).map((key) => [key, (value as Record<string, unknown>)[key]]);
  return entries.some(
    ([key, item]) => visit(key, next, seen) || (typeof key === 'string' && isSecretPair(key, item)) || visit(item, next, seen),
  );
}

function textHasSecret(text: string): boolean {
  let found = false;
  scanSecrets(text, 0, secretRules, (_rule, _start, _end, _secretStart, accepted) => {
    found ||= accepted;
  });
  return found;
}
