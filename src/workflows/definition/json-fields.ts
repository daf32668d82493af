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
