// Small readers for an untrusted JSON object: each returns the typed value or records one
// diagnostic and returns undefined, so a reader can go on and find every other problem too.
import type { DiagnosticList } from './diagnostic.js';
import type { JsonObject } from './workflow-definition.js';

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface FieldSite {
  readonly diagnostics: DiagnosticList;
  /** Prefix for messages, e.g. "Step 'fetch' configuration". */
  readonly label: string;
  readonly step?: string;
}

function where(site: FieldSite): { step?: string } {
  return site.step === undefined ? {} : { step: site.step };
}

/** A required non-empty string (after trimming) of at most maxLength characters. */
export function requiredString(site: FieldSite, source: JsonObject, key: string, maxLength: number): string | undefined {
  const value = source[key];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    site.diagnostics.add('missing-field', `${site.label} needs '${key}'.`, where(site));
    return undefined;
  }
  return checkedString(site, key, value, maxLength);
}

export function optionalString(site: FieldSite, source: JsonObject, key: string, maxLength: number): string | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  return checkedString(site, key, value, maxLength);
}

function checkedString(site: FieldSite, key: string, value: unknown, maxLength: number): string | undefined {
  if (typeof value !== 'string') {
    site.diagnostics.add('invalid-field', `${site.label}: '${key}' must be a string.`, where(site));
    return undefined;
  }
  if (value.length > maxLength) {
    site.diagnostics.add('invalid-field', `${site.label}: '${key}' is longer than ${maxLength} characters.`, where(site));
    return undefined;
  }
  return value;
}

export function optionalInteger(site: FieldSite, source: JsonObject, key: string, min: number, max: number): number | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    site.diagnostics.add('invalid-field', `${site.label}: '${key}' must be an integer from ${min} to ${max}.`, where(site));
    return undefined;
  }
  return value;
}

export function optionalObject(site: FieldSite, source: JsonObject, key: string): JsonObject | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    site.diagnostics.add('invalid-field', `${site.label}: '${key}' must be an object.`, where(site));
    return undefined;
  }
  return value;
}

/** Records an `unknown-field` diagnostic for every key of `source` outside `allowed`, with a near-miss suggestion. */
export function unknownFields(site: FieldSite, source: JsonObject, allowed: readonly string[], where: { edge?: number } = {}): string[] {
  const unknown = Object.keys(source).filter((key) => !allowed.includes(key));
  for (const key of unknown) {
    const near = closest(key, allowed);
    const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key;
    site.diagnostics.add(
      'unknown-field',
      `${site.label} has an unknown field '${shown}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; allowed: ${allowed.join(', ')}.`,
      { ...(site.step === undefined ? {} : { step: site.step }), ...where },
    );
  }
  return unknown;
}

/** The allowed name closest to `key` (case-insensitive): one edit away, two for names over five letters. */
export function closest(key: string, allowed: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  const limit = key.length > 5 ? 2 : 1;
  for (const name of allowed) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
