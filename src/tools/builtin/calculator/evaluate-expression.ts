// Evaluates an arithmetic expression by recursive descent over its tokens, with no eval, no Function and
// no object access. Cost is linear in the (bounded) input: nesting depth is capped, every intermediate
// result must be a finite number, and factorial is capped at 170. It does no symbolic maths, units or
// matrices.
//
//   expression := additive
//   additive   := multiplicative (('+' | '-') multiplicative)*
//   multiplicative := unary (('*' | '/' | '%') unary)*
//   unary      := ('+' | '-') unary | power
//   power      := postfix ('^' unary)?            right-associative; -2^2 = -4, 2^-1 = 0.5
//   postfix    := primary '!'*
//   primary    := number | constant | name '(' additive (',' additive)* ')' | '(' additive ')'
import { CalculatorError, requireFinite } from './calculator-error.js';
import { calculatorConstants, calculatorFunctions, factorial } from './calculator-functions.js';
import { tokenizeExpression, type Punctuator, type Token } from './tokenize-expression.js';

export const MAX_EXPRESSION_LENGTH = 1000;
export const MAX_NESTING_DEPTH = 64;

export function evaluateExpression(source: string): number {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new CalculatorError(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  }
  const tokens = tokenizeExpression(source);
  if (tokens.length === 0) throw new CalculatorError('expression is empty');
  return new Evaluator(tokens).run();
}

const describeToken = (token: Token | undefined): string =>
  token === undefined
    ? 'end of expression'
    : `${JSON.stringify(token.kind === 'number' ? String(token.value) : token.kind === 'name' ? token.name : token.text)} at position ${token.position}`;

class Evaluator {
  readonly #tokens: readonly Token[];
  #index = 0;
  #depth = 0;

  constructor(tokens: readonly Token[]) {
    this.#tokens = tokens;
  }

  run(): number {
    const value = this.#additive();
    if (this.#index < this.#tokens.length) throw new CalculatorError(`unexpected ${describeToken(this.#peek())}`);
    return value;
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#index];
  }

  #accept(text: Punctuator): boolean {
    const token = this.#peek();
    if (token?.kind !== 'punctuator' || token.text !== text) return false;
    this.#index += 1;
    return true;
  }

  #expect(text: Punctuator): void {
    if (!this.#accept(text)) throw new CalculatorError(`expected "${text}" but found ${describeToken(this.#peek())}`);
  }

  #additive(): number {
    let value = this.#multiplicative();
    for (;;) {
      if (this.#accept('+')) value = requireFinite(value + this.#multiplicative(), 'a sum');
      else if (this.#accept('-')) value = requireFinite(value - this.#multiplicative(), 'a difference');
      else return value;
    }
  }

  #multiplicative(): number {
    let value = this.#unary();
    for (;;) {
      if (this.#accept('*')) {
        value = requireFinite(value * this.#unary(), 'a product');
      } else if (this.#accept('/')) {
        value = requireFinite(value / this.#divisor(), 'a quotient');
      } else if (this.#accept('%')) {
        value = requireFinite(value % this.#divisor(), 'a remainder');
      } else {
        return value;
      }
    }
  }

  #divisor(): number {
    const divisor = this.#unary();
    if (divisor === 0) throw new CalculatorError('division by zero');
    return divisor;
  }

  #unary(): number {
    this.#depth += 1;
    if (this.#depth > MAX_NESTING_DEPTH) {
      throw new CalculatorError(`expression is nested more than ${MAX_NESTING_DEPTH} levels deep`);
    }
    try {
      if (this.#accept('+')) return this.#unary();
      if (this.#accept('-')) return -this.#unary();
      return this.#power();
    } finally {
      this.#depth -= 1;
    }
  }

  #power(): number {
    const base = this.#postfix();
    if (!this.#accept('^')) return base;
    return requireFinite(base ** this.#unary(), 'a power');
  }

  #postfix(): number {
    let value = this.#primary();
    while (this.#accept('!')) value = factorial(value);
    return value;
  }

  #primary(): number {
    const token = this.#peek();
    if (token?.kind === 'number') {
      this.#index += 1;
      return token.value;
    }
    if (token?.kind === 'name') {
      this.#index += 1;
      return this.#accept('(') ? this.#call(token.name) : this.#constant(token.name);
    }
    if (this.#accept('(')) {
      const value = this.#additive();
      this.#expect(')');
      return value;
    }
    throw new CalculatorError(`unexpected ${describeToken(token)}`);
  }

  #constant(name: string): number {
    const value = calculatorConstants.get(name);
    if (value === undefined) throw new CalculatorError(`unknown name ${JSON.stringify(name.slice(0, 40))}`);
    return value;
  }

  #call(name: string): number {
    const fn = calculatorFunctions.get(name);
    if (fn === undefined) throw new CalculatorError(`unknown function ${JSON.stringify(name.slice(0, 40))}`);
    const args = [this.#additive()];
    while (this.#accept(',')) args.push(this.#additive());
    this.#expect(')');
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const arity = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      throw new CalculatorError(`${name} takes ${arity} argument${fn.maxArgs === 1 ? '' : 's'}`);
    }
    return requireFinite(fn.apply(args), `${name}(…)`);
  }
}
