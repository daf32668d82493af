import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { conditionReads } from './condition-reads.js';

const environment = new Environment().registerVariable('input', 'map').registerVariable('steps', 'map');
const reads = (expression: string) => conditionReads(environment.parse(expression).ast);

describe('conditionReads', () => {
  it('names the steps read by a static key and whether the input is read at all', () => {
    expect(reads('steps.score.output.value > 0.5 && steps["other"].status == "Succeeded"')).toEqual({ input: false, namedSteps: ['score', 'other'], allSteps: false });
    expect(reads('has(input.flag) && input.l.exists(x, x > 1)')).toEqual({ input: true, namedSteps: [], allSteps: false });
  });

  it('reads every step when `steps` is reached any other way', () => {
    for (const expression of ['size(steps) > 1', 'steps[input.which].output == 1', 'steps.exists(s, s == "a")', 'cel.bind(s, steps, s.a.output == 1)']) {
      expect(reads(expression).allSteps, expression).toBe(true);
    }
  });
});
