// Deep copy of a value with every string redacted: values, object keys, Map and Set entries, Error
// messages, and values whose key marks them secret. Never mutates its input; keeps shared references
// and cycles as they are; replaces anything deeper than MAX_REDACTION_DEPTH with the marker.
import { containsSecret } from './contains-secret.js';
import { MAX_REDACTION_DEPTH } from './depth-limit.js';
import { redactText } from './redact-text.js';
import { REDACTED } from './redacted.js';
import { isOpaque } from './opaque-value.js';
import { redactPairValue } from './secret-pair.js';

export function redactValue<T>(value: T): T {
  return copy(value, 1, new Map()) as T;
}

/**
 * For values nobody mutates afterwards (a run's stored step outputs): the value itself when it carries
 * no detected secret, since its redacted copy would equal it, else redactValue's copy. Most tool
 * outputs carry none, so a workflow step keeps one object instead of two.
 */
export function redactValueOrSame<T>(value: T): T {
  return containsSecret(value) ? redactValue(value) : value;
}

function copy(value: unknown, depth: number, copies: Map<object, unknown>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null || isOpaque(value)) return value;
  if (copies.has(value)) return copies.get(value);
  if (depth > MAX_REDACTION_DEPTH) return REDACTED;
  const next = depth + 1;
  if (value instanceof URL) return copyUrl(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    copies.set(value, out);
    for (const item of value as unknown[]) out.push(copy(item, next, copies));
    return out;
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    copies.set(value, out);
    for (const [key, item] of value as Map<unknown, unknown>) out.set(copy(key, next, copies), copyField(key, item, next, copies));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set<unknown>();
    copies.set(value, out);
    for (const item of value as Set<unknown>) out.add(copy(item, next, copies));
    return out;
  }
  return copyObject(value, next, copies);
}

/** Plain objects, errors and class instances: own string-keyed properties, same prototype. */
function copyObject(value: object, next: number, copies: Map<object, unknown>): object {
  const prototype = Object.getPrototypeOf(value) as object | null;
  const out = Object.create(prototype) as Record<string, unknown>;
  copies.set(value, out);
  // Error message, stack and cause are own but not enumerable; they are exactly what leaks secrets.
  const isError = value instanceof Error;
  const plain = prototype === Object.prototype || prototype === null;
  for (const key of isError ? Object.getOwnPropertyNames(value) : Object.keys(value)) {
    const field = copyField(key, (value as Record<string, unknown>)[key], next, copies);
    const name = redactText(key);
    const enumerable = !isError || Object.prototype.propertyIsEnumerable.call(value, key);
    // Assignment is the fast path, but it would run a setter (`__proto__`, a class accessor).
    if (plain && enumerable && name !== '__proto__') out[name] = field;
    else Object.defineProperty(out, name, { value: field, enumerable, writable: true, configurable: true });
  }
  return out;
}

function copyField(key: unknown, field: unknown, next: number, copies: Map<object, unknown>): unknown {
  if (typeof key === 'string' && typeof field === 'string') return redactPairValue(key, field) ?? redactText(field);
  return copy(field, next, copies);
}

/** A URL with its href redacted; the redacted string itself if it no longer parses as a URL. */
function copyUrl(url: URL): URL | string {
  const href = redactText(url.href);
  return URL.canParse(href) ? new URL(href) : href;
}
