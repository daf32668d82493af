import { describe, expect, it } from 'vitest';
import { checkCondition, evaluateCondition } from './condition.js';

describe('checkCondition', () => {
  it('accepts a boolean comparison and reports the steps it reads', () => {
    expect(checkCondition('steps.score.output.value > 0.5 && input.flag == true')).toEqual({ ok: true, referencedSteps: ['score'] });
  });

  it('refuses regular-expression matching, as a method or a function, so a condition cannot backtrack for ever', () => {
    for (const expression of ['input.name.matches("(a+)+$")', 'matches(input.name, "a*")', 'true || input.x.matches("b")']) {
      expect(checkCondition(expression)).toMatchObject({ ok: false, code: 'invalid-condition', message: expect.stringContaining('matches') });
    }
  });

  it('refuses a condition whose cost is knowably over budget: data iterated inside an iteration over data', () => {
    expect(checkCondition('input.l.exists(a, input.l.exists(b, false))')).toMatchObject({ ok: false, code: 'condition-too-costly', message: expect.stringContaining('square') });
  });

  it('still allows the other string tests', () => {
    expect(checkCondition('input.name.startsWith("a") || input.name.contains("b")')).toMatchObject({ ok: true });
  });
});

describe('evaluateCondition', () => {
  it('yields the boolean result', () => {
    expect(evaluateCondition('input.amount > 100', { input: { amount: 250 }, steps: {} })).toEqual({ ok: true, value: true });
  });
});
