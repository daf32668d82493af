// The calculator's whitelist of named constants and functions over finite real numbers. Lookups go
// through Maps, so names such as `constructor` or `__proto__` are simply unknown.
import { CalculatorError } from './calculator-error.js';

export interface CalculatorFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly apply: (args: readonly number[]) => number;
}

/** 170! is the largest factorial a double holds. */
const MAX_FACTORIAL = 170;

export function factorial(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > MAX_FACTORIAL) {
    throw new CalculatorError(`factorial needs an integer from 0 to ${MAX_FACTORIAL}`);
  }
  let result = 1;
  for (let k = 2; k <= n; k += 1) result *= k;
  return result;
}

function roundTo(x: number, digits = 0): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new CalculatorError('round takes 0 to 15 decimal places');
  }
  const scale = 10 ** digits;
  return (Math.sign(x) * Math.round(Math.abs(x) * scale)) / scale;
}

function flooredMod(a: number, b: number): number {
  if (b === 0) throw new CalculatorError('division by zero');
  return ((a % b) + b) % b;
}

/** Natural log, or log to `base`; bases 2 and 10 use the exact built-ins (log(1000, 10) is 3, not 2.9999…). */
function logarithm(x: number, base?: number): number {
  if (base === undefined) return Math.log(x);
  if (base === 10) return Math.log10(x);
  if (base === 2) return Math.log2(x);
  return Math.log(x) / Math.log(base);
}

const unary = (fn: (x: number) => number): CalculatorFunction => ({ minArgs: 1, maxArgs: 1, apply: ([x = NaN]) => fn(x) });
const binary = (fn: (a: number, b: number) => number): CalculatorFunction => ({
  minArgs: 2,
  maxArgs: 2,
  apply: ([a = NaN, b = NaN]) => fn(a, b),
});
const variadic = (fn: (...xs: number[]) => number): CalculatorFunction => ({ minArgs: 1, maxArgs: 64, apply: (xs) => fn(...xs) });

export const calculatorConstants: ReadonlyMap<string, number> = new Map([
  ['pi', Math.PI],
  ['PI', Math.PI],
  ['e', Math.E],
  ['E', Math.E],
  ['tau', 2 * Math.PI],
  ['phi', (1 + Math.sqrt(5)) / 2],
]);

export const calculatorFunctions: ReadonlyMap<string, CalculatorFunction> = new Map([
  ['abs', unary(Math.abs)],
  ['sign', unary(Math.sign)],
  ['sqrt', unary(Math.sqrt)],
  ['cbrt', unary(Math.cbrt)],
  ['exp', unary(Math.exp)],
  ['ln', unary(Math.log)],
  ['log', { minArgs: 1, maxArgs: 2, apply: ([x = NaN, base]) => logarithm(x, base) }],
  ['log10', unary(Math.log10)],
  ['log2', unary(Math.log2)],
  ['sin', unary(Math.sin)],
  ['cos', unary(Math.cos)],
  ['tan', unary(Math.tan)],
  ['asin', unary(Math.asin)],
  ['acos', unary(Math.acos)],
  ['atan', unary(Math.atan)],
  ['atan2', binary(Math.atan2)],
  ['sinh', unary(Math.sinh)],
  ['cosh', unary(Math.cosh)],
  ['tanh', unary(Math.tanh)],
  ['floor', unary(Math.floor)],
  ['ceil', unary(Math.ceil)],
  ['trunc', unary(Math.trunc)],
  ['round', { minArgs: 1, maxArgs: 2, apply: ([x = NaN, digits]) => roundTo(x, digits) }],
  ['min', variadic(Math.min)],
  ['max', variadic(Math.max)],
  ['hypot', variadic(Math.hypot)],
  ['pow', binary(Math.pow)],
  ['mod', binary(flooredMod)],
  ['factorial', unary(factorial)],
]);
