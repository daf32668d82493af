// The one error the calculator's tokenizer and evaluator throw for bad input; the tool turns it into a
// failure result. Anything else escaping them is a programming error.
export class CalculatorError extends Error {
  override readonly name = 'CalculatorError';
}

/** Throws unless `value` is a finite number; every intermediate result goes through this. */
export function requireFinite(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new CalculatorError(`${what} is not a finite number`);
  return value;
}
