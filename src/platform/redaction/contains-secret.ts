// Whether a value carries a detected secret anywhere: strings, object keys, Map and Set entries,
// Error messages, values whose key marks them secret. Used by the governed call's data-classification
// check, so it fails closed: content nested deeper than MAX_REDACTION_DEPTH counts as a secret.
import { decodedViews } from './decoded-views.js';
import { MAX_REDACTION_DEPTH } from './depth-limit.js';
import { containsAnchor, scanSecrets } from './find-secret-matches.js';
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
  if (value instanceof Map) {
    for (const [key, item] of value as Map<unknown, unknown>) if (visitEntry(key, item, next, seen)) return true;
    return false;
  }
  // A loop, not entries and closures: the governed call and the run recorder check every tool call's data.
  for (const key of value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value)) {
    if (visitEntry(key, (value as Record<string, unknown>)[key], next, seen)) return true;
  }
  return false;
}

function visitEntry(key: unknown, item: unknown, depth: number, seen: Set<object>): boolean {
  return visit(key, depth, seen) || (typeof key === 'string' && isSecretPair(key, item)) || visit(item, depth, seen);
}

/** The text as written or as a client decodes its JSON escapes. */
function textHasSecret(text: string): boolean {
  if (!text.includes('\\') && !containsAnchor(text)) return false;
  let found = false;
  const visit = (_rule: unknown, _start: number, _end: number, _secretStart: number, accepted: boolean): void => {
    found ||= accepted;
  };
  scanSecrets(text, 0, secretRules, visit);
  for (const view of decodedViews(text)) {
    if (found) break;
    scanSecrets(view.text, 0, secretRules, visit);
  }
  return found;
}
