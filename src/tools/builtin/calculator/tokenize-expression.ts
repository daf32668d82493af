// Splits an arithmetic expression into numbers, names and operator symbols. It accepts nothing else: no
// strings, no property access, no assignment, so hostile input fails here or in the grammar.
import { CalculatorError, requireFinite } from './calculator-error.js';

export type Punctuator = '+' | '-' | '*' | '/' | '%' | '^' | '!' | '(' | ')' | ',';

export type Token =
  | { readonly kind: 'number'; readonly value: number; readonly position: number }
  | { readonly kind: 'name'; readonly name: string; readonly position: number }
  | { readonly kind: 'punctuator'; readonly text: Punctuator; readonly position: number };

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const PUNCTUATORS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '^', '!', '(', ')', ',']);

/** The text a sticky pattern matches at `index`, if any. */
function matchAt(pattern: RegExp, source: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(source)?.[0];
}

export function tokenizeExpression(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source.charAt(index);
    const position = index + 1;
    const number = matchAt(NUMBER, source, index);
    const name = number === undefined ? matchAt(NAME, source, index) : undefined;
    if (/\s/.test(char)) {
      index += 1;
    } else if (source.startsWith('**', index)) {
      tokens.push({ kind: 'punctuator', text: '^', position });
      index += 2;
    } else if (PUNCTUATORS.has(char)) {
      tokens.push({ kind: 'punctuator', text: char as Punctuator, position });
      index += 1;
    } else if (number !== undefined) {
      tokens.push({ kind: 'number', value: requireFinite(Number(number), `the number ${number}`), position });
      index += number.length;
    } else if (name !== undefined) {
      tokens.push({ kind: 'name', name, position });
      index += name.length;
    } else {
      throw new CalculatorError(`unexpected character ${JSON.stringify(char)} at position ${position}`);
    }
  }
  return tokens;
}
