// Option values the remote commands read alike: positive integers, fail-rate thresholds, JSON objects,
// and the optional fields of an eval run's start request (`eval run`, `schedule create --eval`).
// A value they cannot use is bad usage (exit 2), said before anything is sent.
import type { Schema } from '../../client/index.js';
import { UsageError } from './remote-command.js';

type Values = Readonly<Record<string, string | boolean | string[] | undefined>>;

export function integerOption(value: unknown, name: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer`);
  return n;
}

export function fractionOption(value: unknown, name: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${name} must be a number from 0 to 1`);
  return n;
}

/** A JSON object given on the command line (`--input '{"version":"1.2"}'`). */
export function jsonObjectOption(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${name} must be a JSON object`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** The options of an eval run's start request that were given, under the command's own option names. */
export function evalRunOptions(
  values: Values,
  names: { readonly threshold: string; readonly tag: string },
): Omit<Schema<'StartEvalRunRequest'>, 'datasets'> {
  const tags = values[names.tag];
  return {
    ...(values.repeats !== undefined ? { repeats: integerOption(values.repeats, '--repeats') } : {}),
    ...(values.parallelism !== undefined ? { parallelism: integerOption(values.parallelism, '--parallelism') } : {}),
    ...(values[names.threshold] !== undefined ? { failRateThreshold: fractionOption(values[names.threshold], `--${names.threshold}`) } : {}),
    ...(Array.isArray(tags) && tags.length > 0 ? { tagFilter: tags } : {}),
  };
}
