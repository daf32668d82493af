import { afterAll, describe, expect, it } from 'vitest';
import { ConditionEvaluator } from './condition-evaluator.js';
import { CONDITION_BUDGET_EXCEEDED, CONDITION_NOT_EVALUATED, CONDITIONS_BUSY } from './step-failures.js';

const never = new AbortController().signal;
const evaluator = new ConditionEvaluator({ timeLimitMs: 150 });
const l = Array.from({ length: 20_000 }, (_, i) => `item-${i}`);

afterAll(async () => {
  await evaluator.close();
});

describe('ConditionEvaluator', () => {
  it("yields the condition's boolean, or its evaluation error", async () => {
    expect(await evaluator.evaluate('o', 'input.amount > 100 && steps.score.output == 3', { input: { amount: 250 }, steps: { score: { status: 'Succeeded', output: 3 } } }, never)).toEqual({ ok: true, value: true });
    expect(await evaluator.evaluate('o', 'input.flag', { input: { flag: 'yes' }, steps: {} }, never)).toEqual({ ok: false, error: 'The condition did not yield a boolean.' });
  });

  it('fails with the budget text once a condition runs past its time limit, and answers the next at once', async () => {
    const started = performance.now();
    expect(await evaluator.evaluate('o', 'input.l.exists(a, "absent" in input.l)', { input: { l }, steps: {} }, never)).toEqual({ ok: false, error: CONDITION_BUDGET_EXCEEDED });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await evaluator.evaluate('o', 'size(input.l) == 20000', { input: { l }, steps: {} }, never)).toEqual({ ok: true, value: true });
  });

  it("fails the issue's freezing condition within its limit, as a definition stored before submit refused it would run", async () => {
    const started = performance.now();
    expect(await evaluator.evaluate('o', 'input.l.exists(a, input.l.exists(b, false))', { input: { l }, steps: {} }, never)).toEqual({ ok: false, error: CONDITION_BUDGET_EXCEEDED });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('fails with the budget text when a condition grows past its heap', async () => {
    const roomy = new ConditionEvaluator({ timeLimitMs: 20_000 });
    try {
      const doubling = 'cel.bind(a, input.l + input.l, cel.bind(b, a + a, cel.bind(c, b + b, cel.bind(d, c + c, cel.bind(e, d + d, cel.bind(f, e + e, cel.bind(g, f + f, cel.bind(h, g + g, cel.bind(i, h + h, cel.bind(j, i + i, size(j + j) > 0))))))))))';
      expect(await roomy.evaluate('o', doubling, { input: { l }, steps: {} }, never)).toEqual({ ok: false, error: CONDITION_BUDGET_EXCEEDED });
    } finally {
      await roomy.close();
    }
  });

  it('sends its thread only what the condition reads', async () => {
    // A BigInt has no JSON text: were the unread input and step sent, evaluation would fail.
    const steps = { read: { status: 'Succeeded', output: 1 }, unread: { status: 'Succeeded', output: 1n } };
    expect(await evaluator.evaluate('o', 'steps.read.output == 1.0', { input: { unread: 1n }, steps }, never)).toEqual({ ok: true, value: true });
    expect(await evaluator.evaluate('o', 'size(steps) == 2', { input: {}, steps }, never)).toEqual({ ok: false, error: CONDITION_NOT_EVALUATED });
  });

  it('evaluates over a run’s data at its size bounds, twice (the second time from the serialized texts it kept)', async () => {
    // About 2 MiB of input and 4 MiB of outputs as tiny objects: the costliest shape to move.
    const tiny = (count: number) => Array.from({ length: count }, (_, i) => ({ v: i % 10 }));
    const steps = Object.fromEntries(Array.from({ length: 4 }, (_, k) => [`s${k}`, { status: 'Succeeded', output: tiny(130_000) }]));
    const context = { input: { l: tiny(260_000) }, steps };
    // Constant work once the data is there: what is measured is moving the data, not evaluating over it
    // (an iteration over 130,000 items can pass the 250 ms budget on a loaded two-core machine).
    const expression = 'size(input.l) == 260000 && size(steps) == 4 && steps.s3.output[129999].v == 9';
    // A roomy limit: this checks that data at the size bounds arrives whole, twice; the budget has its own tests.
    const roomy = new ConditionEvaluator({ timeLimitMs: 20_000 });
    try {
      expect(await roomy.evaluate('o', expression, context, never)).toEqual({ ok: true, value: true });
      expect(await roomy.evaluate('o', expression, context, never)).toEqual({ ok: true, value: true });
    } finally {
      await roomy.close();
    }
  });

  it('refuses at once, with its own text, a condition that would wait past the bound', async () => {
    const small = new ConditionEvaluator({ timeLimitMs: 10_000, pool: { threads: 1, maxWaitingPerOwner: 1, maxWaiting: 1 } });
    const stop = new AbortController();
    try {
      const runaway = small.evaluate('o', 'input.l.exists(a, "absent" in input.l)', { input: { l }, steps: {} }, stop.signal);
      const waiting = small.evaluate('o', 'true', { input: {}, steps: {} }, never);
      expect(await small.evaluate('other', 'true', { input: {}, steps: {} }, never)).toEqual({ ok: false, error: CONDITIONS_BUSY });
      stop.abort();
      expect(await runaway).toEqual({ ok: false, error: CONDITION_NOT_EVALUATED });
      expect(await waiting).toEqual({ ok: true, value: true });
    } finally {
      await small.close();
    }
  });
});
