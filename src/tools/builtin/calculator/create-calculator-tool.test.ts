import { describe, expect, it } from 'vitest';
import { createCalculatorTool } from './create-calculator-tool.js';

const context = { ownerId: 'sub:tester', signal: new AbortController().signal };
const tool = createCalculatorTool();
const evaluate = (expression: string) => tool.invoke('evaluate', { expression }, context);

describe('calculator.evaluate', () => {
  it.each<[string, number]>([
    ['1 + 2 * 3', 7],
    ['(2 + 3) * sqrt(16) / 4', 5],
    ['2^3^2', 512],
    ['2 ** 10', 1024],
    ['-2^2', -4],
    ['2^-1', 0.5],
    ['5!', 120],
    ['3!!', 720],
    ['-3!', -6],
    ['7 % 3', 1],
    ['-7 % 3', -1],
    ['mod(-7, 3)', 2],
    ['round(100 * 1.075^10, 2)', 206.1],
    ['round(-2.5)', -3],
    ['log(1000, 10)', 3],
    ['log(8, 2)', 3],
    ['ln(e)', 1],
    ['max(1, 5, 3) - min(4, 2)', 3],
    ['sin(pi / 2)', 1],
    ['hypot(3, 4)', 5],
    ['1.5e3 + .5', 1500.5],
    ['0.1 + 0.2', 0.30000000000000004],
  ])('evaluates %s to %d', async (expression, result) => {
    expect(await evaluate(expression)).toEqual({
      ok: true,
      output: JSON.stringify({ expression, result }),
    });
  });

  it('reports the largest factorial a double can hold', async () => {
    const result = await evaluate('factorial(170)');
    expect(result.ok && JSON.parse(result.output)).toEqual({ expression: 'factorial(170)', result: 7.257415615307994e306 });
  });

  it.each([
    ['1 / 0', 'division by zero'],
    ['5 % 0', 'division by zero'],
    ['sqrt(-1)', 'sqrt(…) is not a finite number'],
    ['log(0)', 'log(…) is not a finite number'],
    ['2^1024', 'a power is not a finite number'],
    ['1e400', 'the number 1e400 is not a finite number'],
    ['1 +', 'unexpected end of expression'],
    ['(1 + 2', 'expected ")" but found end of expression'],
    ['1 2', 'unexpected "2" at position 3'],
    ['2pi', 'unexpected "pi" at position 2'],
    ['sqrt(1, 2)', 'sqrt takes 1 argument'],
    ['round(1.5, 99)', 'round takes 0 to 15 decimal places'],
    ['   ', 'expression is empty'],
    ['(-1)!', 'factorial needs an integer from 0 to 170'],
    ['2.5!', 'factorial needs an integer from 0 to 170'],
  ])('fails %s with "%s"', async (expression, error) => {
    expect(await evaluate(expression)).toEqual({ ok: false, error });
  });
});

describe('calculator.evaluate against hostile input', () => {
  it.each([
    ['constructor', 'unknown name "constructor"'],
    ['__proto__', 'unknown name "__proto__"'],
    ['toString(1)', 'unknown function "toString"'],
    ['hasOwnProperty(1)', 'unknown function "hasOwnProperty"'],
    ['import(1)', 'unknown function "import"'],
    ['evaluate(1)', 'unknown function "evaluate"'],
    ['import("fs")', 'unexpected character "\\"" at position 8'],
    ['cos.constructor("return process")()', 'unexpected character "." at position 4'],
    ['f(x) = x^2', 'unexpected character "=" at position 6'],
    ['x => 1', 'unexpected character "=" at position 3'],
    ['[1, 2]', 'unexpected character "[" at position 1'],
    ['process', 'unknown name "process"'],
  ])('refuses %s', async (expression, error) => {
    expect(await evaluate(expression)).toEqual({ ok: false, error });
  });

  it('refuses nesting deeper than 64 levels without overflowing the stack', async () => {
    const parens = `${'('.repeat(200)}1${')'.repeat(200)}`;
    expect(await evaluate(parens)).toEqual({ ok: false, error: 'expression is nested more than 64 levels deep' });
    expect(await evaluate(`${'-'.repeat(500)}1`)).toEqual({ ok: false, error: 'expression is nested more than 64 levels deep' });
    expect(await evaluate(`${'2^'.repeat(400)}2`)).toMatchObject({ ok: false });
  });

  it('refuses expressions longer than 1000 characters before parsing them', async () => {
    const deep = `${'('.repeat(50_000)}1${')'.repeat(50_000)}`;
    expect(await evaluate(deep)).toEqual({ ok: false, error: 'expression is longer than 1000 characters' });
  });

  it('fails huge powers and factorials quickly instead of computing them', async () => {
    const started = performance.now();
    expect(await evaluate('9^9^9^9')).toEqual({ ok: false, error: 'a power is not a finite number' });
    expect(await evaluate('factorial(100000)')).toEqual({ ok: false, error: 'factorial needs an integer from 0 to 170' });
    expect(await evaluate('171!')).toMatchObject({ ok: false });
    expect(await evaluate(`${'9^'.repeat(60)}9`)).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe('createCalculatorTool', () => {
  it('fails an undeclared operation naming the accepted one', async () => {
    expect(await tool.invoke('simplify', { expression: 'x' }, context)).toEqual({
      ok: false,
      error: 'unknown operation "simplify"; calculator accepts evaluate',
    });
  });

  it('fails rather than throws when the expression is not a string', async () => {
    expect(await tool.invoke('evaluate', { expression: { toString: 1 } }, context)).toEqual({
      ok: false,
      error: 'expression must be a string',
    });
  });

  it('fails without working when the call is already aborted', async () => {
    const aborted = { ownerId: 'sub:tester', signal: AbortSignal.abort() };
    expect(await tool.invoke('evaluate', { expression: '1' }, aborted)).toEqual({ ok: false, error: 'aborted' });
  });
});
