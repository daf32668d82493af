import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { conditionCost, MAX_FIXED_STEPS, MAX_STEPS_PER_ITEM } from './condition-cost.js';

const environment = new Environment().registerVariable('input', 'map').registerVariable('steps', 'map');
const cost = (expression: string) => conditionCost(environment.parse(expression).ast);
const literal = (length: number): string => `[${Array.from({ length }, (_, i) => i).join(',')}]`;

describe('conditionCost', () => {
  it('prices a plain comparison as a few fixed steps', () => {
    expect(cost('steps.score.output.value > 0.5 && input.flag == true')).toMatchObject({ ok: true, work: { perItem: 0, superlinear: false } });
    expect(cost('input.flag').work.fixed).toBeLessThan(10);
  });

  it('prices one iteration over data as linear in its size', () => {
    expect(cost('input.items.exists(i, i.price > 100)')).toMatchObject({ ok: true, work: { superlinear: false } });
    expect(cost('input.items.exists(i, i.price > 100)').work.perItem).toBeGreaterThan(0);
  });

  it("treats an iteration over each element's own parts as linear: together they are the data", () => {
    expect(cost('input.orders.exists(o, o.items.exists(i, i.subs.exists(s, s > 1)))')).toMatchObject({ ok: true, work: { superlinear: false } });
    expect(cost(`input.orders.exists(o, ${literal(3)}.exists(k, o.items.exists(i, i == k)))`)).toMatchObject({ ok: true });
  });

  it('refuses data iterated inside an iteration over data, however it is reached', () => {
    for (const expression of [
      'input.l.exists(a, input.l.exists(b, false))',
      'input.l.all(a, steps.x.output.exists(b, a == b))',
      'input.l.map(x, x * 2).exists(y, input.l.exists(z, z == y))',
      'cel.bind(x, input.l, x.exists(a, x.exists(b, a == b)))',
      // An element's parts are linear once, not when walked again inside a walk of another part.
      'input.orders.exists(o, o.items.exists(i, o.tags.exists(t, t == i)))',
      'input.orders.exists(o, o.items.exists(i, o.items.exists(j, i == j)))',
    ]) {
      expect(cost(expression), expression).toMatchObject({ ok: false, work: { superlinear: true }, message: expect.stringContaining('square of the input') });
    }
  });

  it('multiplies literal iterations: two 256-item levels pass, three do not', () => {
    expect(cost(`${literal(256)}.exists(a, ${literal(256)}.exists(b, a == b))`)).toMatchObject({ ok: true });
    const three = cost(`${literal(256)}.exists(a, ${literal(256)}.exists(b, ${literal(256)}.exists(c, false)))`);
    expect(three).toMatchObject({ ok: false, message: expect.stringContaining(`at most ${MAX_FIXED_STEPS}`) });
    expect(three.work.fixed).toBeGreaterThan(256 ** 3);
  });

  it('refuses heavy literal work for every item of data', () => {
    expect(cost(`input.l.exists(a, ${literal(256)}.exists(b, ${literal(256)}.exists(c, false)))`)).toMatchObject({
      ok: false,
      message: expect.stringContaining(`at most ${MAX_STEPS_PER_ITEM} are allowed`),
    });
    expect(cost(`input.l.exists(a, a in ${literal(256)})`)).toMatchObject({ ok: true });
  });

  it('follows literal lists through cel.bind, + and the ternary', () => {
    const l = literal(200);
    expect(cost(`cel.bind(x, ${l} + ${l}, x.exists(a, x.exists(b, x.exists(c, false))))`)).toMatchObject({ ok: false });
    expect(cost(`(true ? ${l} : [1]).exists(a, ${l}.exists(b, ${l}.exists(c, false)))`)).toMatchObject({ ok: false });
    expect(cost(`cel.bind(x, [1, 2, 3], x.exists(a, input.l.exists(b, a == b)))`)).toMatchObject({ ok: true });
  });

  it('leaves to the run-time budget what depends on values: `in` over data, concatenated data', () => {
    expect(cost('input.l.exists(a, "absent" in input.l)')).toMatchObject({ ok: true });
    expect(cost('cel.bind(a, input.l + input.l, size(a + a) > 0)')).toMatchObject({ ok: true });
  });
});
