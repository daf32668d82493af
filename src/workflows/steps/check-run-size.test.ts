import { describe, expect, it } from 'vitest';
import type { StepConfiguration } from '../definition/workflow-definition.js';
import type { GraphStep, WorkflowGraph } from '../engine/workflow-graph.js';
import { checkRunSize } from './check-run-size.js';

/** A graph of independent steps; `child` makes a SubPlanInvocation with that graph. */
function graph(steps: Array<{ name: string; configuration?: StepConfiguration; child?: WorkflowGraph }>, input = {}): WorkflowGraph {
  return {
    entry: 0,
    input,
    steps: steps.map((spec, index): GraphStep => ({
      index,
      id: spec.name,
      name: spec.name,
      path: spec.name,
      type: spec.child ? 'SubPlanInvocation' : (spec.configuration?.type ?? 'LlmCall'),
      configuration: spec.child ? { type: 'SubPlanInvocation', workflowId: 'w' } : (spec.configuration ?? { type: 'LlmCall', prompt: 'hi' }),
      successors: [],
      predecessorCount: 0,
      ...(spec.child ? { child: spec.child } : {}),
    })),
  };
}

const limits = { maxSteps: 10, maxRenderedTemplateBytes: 100 };

describe('checkRunSize', () => {
  it('counts the steps of the whole expansion, every sub-plan once per step that invokes it', () => {
    const child = graph([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(checkRunSize(graph([{ name: 'x', child }, { name: 'y', child }, { name: 'z' }]), {}, limits)).toBeUndefined(); // 3 steps + 2 × 3
    expect(checkRunSize(graph([{ name: 'x', child }, { name: 'y', child }, { name: 'z', child }]), {}, limits)).toBe(
      'With the steps of its sub-plans the workflow has 12 steps; at most 10 are allowed.',
    );
  });

  it('refuses a template the input alone renders past the bound, in a child under its merged input', () => {
    const prompt = (text: string): StepConfiguration => ({ type: 'LlmCall', prompt: text });
    const child = graph([{ name: 'inner', configuration: prompt('{{ input.x }}{{ input.x }}') }], { x: 'short' });
    const parent = graph([{ name: 'outer', configuration: prompt('{{ input.x }} {{ steps.s.output }}') }, { name: 'sub', child }]);
    expect(checkRunSize(parent, { x: 'x'.repeat(50) }, limits)).toBeUndefined();
    expect(checkRunSize(parent, { x: 'x'.repeat(51) }, limits)).toBe(
      "With this input, step 'inner' renders a template larger than the 100 bytes a template may render to.",
    );
  });

  it('bounds a ToolUse step’s parameters as a whole', () => {
    const tool = (parameters: Record<string, unknown>): StepConfiguration => ({ type: 'ToolUse', tool: 'json', operation: 'query', parameters });
    const run = graph([{ name: 't', configuration: tool({ a: '{{ input.x }}', b: ['{{ input.x }}'] }) }]);
    expect(checkRunSize(run, { x: 'x'.repeat(50) }, limits)).toBeUndefined();
    expect(checkRunSize(run, { x: 'x'.repeat(51) }, limits)).toMatch(/step 't' renders a template larger/);
  });
});
