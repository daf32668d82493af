// Small typed readers over a parsed YAML/JSON object: each returns the value or throws InvalidField
// naming where it is. Unknown keys are refused, so a typo (`asserts:`) never silently drops a check.
import { InvalidField } from './invalid-field.js';

export type Fields = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, path: string): Fields {
  if (!isObject(value)) throw new InvalidField(path, 'must be an object');
  return value;
}

export function refuseUnknownKeys(fields: Fields, allowed: readonly string[], path: string): void {
  const unknown = Object.keys(fields).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw new InvalidField(path, `has an unknown key '${unknown.slice(0, 64)}' (allowed: ${allowed.join(', ')})`);
}

export function optionalString(fields: Fields, key: string, path: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidField(`${path}${key}`, 'must be a string');
  return value;
}

export function requiredText(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidField(path, 'must be a non-empty string');
  return value;
}

export function optionalTextList(fields: Fields, key: string, path: string): string[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new InvalidField(`${path}${key}`, 'must be a list of strings');
  return value.map((item, index) => requiredText(item, `${path}${key}[${index}]`));
}

export function optionalPositiveNumber(fields: Fields, key: string, path: string, max: number): number | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new InvalidField(`${path}${key}`, `must be a number greater than 0 and at most ${max}`);
  }
  return value;
}
