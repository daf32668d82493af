// Numbers and integers with inclusive ranges: JSON numbers, or decimal strings (environment
// variables). No hex, no Infinity, no blank strings.
import { accept, isBlank, refuse, type Codec, type Decoded } from './codec.js';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function readNumber(raw: unknown): number | null {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw.trim()) : null;
  return value !== null && Number.isFinite(value) ? value : null;
}

function describeRange(kind: string, min: number, max: number | undefined, minExclusive: boolean): string {
  if (max !== undefined) return `must be ${kind} from ${min} to ${max}`;
  return `must be ${kind} ${minExclusive ? '>' : '≥'} ${min}`;
}

export interface IntegerRange {
  readonly min: number;
  readonly max?: number;
}

export function integerCodec({ min, max }: IntegerRange): Codec<number> {
  const message = describeRange('an integer', min, max, false);
  return {
    display: max === undefined ? `integer ≥ ${min}` : `integer ${min}–${max}`,
    decode(raw) {
      const value = readNumber(raw);
      if (value === null || !Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
        return refuse(message);
      }
      return accept(value);
    },
  };
}

export interface NumberRange {
  readonly min: number;
  readonly max?: number;
  /** True when `min` itself is not allowed (timeouts: > 0). */
  readonly minExclusive?: boolean;
  /** True when null or a blank string means "unset" (null). */
  readonly nullable?: boolean;
}

export function numberCodec(range: NumberRange & { readonly nullable: true }): Codec<number | null>;
export function numberCodec(range: NumberRange): Codec<number>;
export function numberCodec({ min, max, minExclusive = false, nullable = false }: NumberRange): Codec<number | null> {
  const message = describeRange('a number', min, max, minExclusive);
  const lowOk = (value: number): boolean => (minExclusive ? value > min : value >= min);
  const range = max === undefined ? `${minExclusive ? '>' : '≥'} ${min}` : `${min}–${max}`;
  return {
    display: `number ${range}${nullable ? ', optional' : ''}`,
    decode(raw): Decoded<number | null> {
      if (nullable && isBlank(raw)) return accept(null);
      const value = readNumber(raw);
      if (value === null || !lowOk(value) || (max !== undefined && value > max)) return refuse(message);
      return accept(value);
    },
  };
}
