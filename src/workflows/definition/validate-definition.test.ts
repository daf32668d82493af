// Definition validation without HTTP: every problem reported at once, each with its code and place.
import { describe, expect, it } from 'vitest';
import { ParameterValidator, ToolRegistry } from '../../tools/index.js';
import { createClockTool } from '../../tools/builtin/clock/index.js';
import { validateDefinition, type ValidationContext } from './validate-definition.js';
import type { StoredWorkflow } from './workflow-definition.js';

const tool = (name: string, parameters: Record<string, unknown> = {}) => ({
  name,
  type: 'ToolUse',
  configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters },
});

function context(stored: StoredWorkflow[] = [], overrides: Partial<ValidationContext> = {}): ValidationContext {
  return {
    maxSteps: 10,
    hasIndex: (name) => name === 'handbook',
    tools: { registry: new ToolRegistry([createClockTool()]), validator: new ParameterValidator() },
    lookup: async (id) => stored.find((w) => w.id === id),
    ...overrides,
  };
}

function stored(id: string, subPlanDepth: number, children: string[] = [], expandedStepCount = 1): StoredWorkflow {
  return {
    id,
    ownerId: 'o',
    name: id,
    createdAt: 0,
    steps: children.length === 0
      ? [{ id: `${id}-s`, name: 's', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } }]
      : children.map((child, i) => ({ id: `${id}-${i}`, name: `p${i}`, type: 'SubPlanInvocation', configuration: { type: 'SubPlanInvocation', workflowId: child } })),
    edges: [],
    entryStep: children.length === 0 ? 's' : 'p0',
    input: {},
    expandedStepCount,
    subPlanDepth,
  };
}

describe('validateDefinition', () => {
  it('accepts a valid definition and returns it typed, entry step defaulting to the first step', async () => {
    const result = await validateDefinition({ name: 'w', steps: [tool('a'), tool('b', { timeZone: '{{ steps.a.output.timeZone }}' })], edges: [{ from: 'a', to: 'b' }] }, context());
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.draft).toMatchObject({ name: 'w', entryStep: 'a', input: {}, edges: [{ from: 'a', to: 'b', type: 'ControlFlow' }] });
    expect(result.shape).toEqual({ expandedStepCount: 2, subPlanDepth: 0 });
  });

  it('collects problems of every kind in one answer', async () => {
    const result = await validateDefinition(
      {
        steps: [tool('a'), { name: 'a', type: 'LlmCall' }, { name: 'c', type: 'Teleport' }],
        edges: [{ from: 'a', to: 'ghost' }],
      },
      context(),
    );
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['missing-field', 'duplicate-step-name', 'missing-field', 'unknown-step-type', 'unknown-edge-end', 'unreachable-step']);
    expect(result.diagnostics[4]).toMatchObject({ edge: 0 });
  });

  it('reports a cycle once with its members and the steps it makes unreachable', async () => {
    const result = await validateDefinition(
      { name: 'w', steps: [tool('a'), tool('b'), tool('c')], edges: [{ from: 'b', to: 'c' }, { from: 'c', to: 'b' }] },
      context(),
    );
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'cycle', step: 'b', message: "Steps 'b', 'c' form a cycle." }),
      expect.objectContaining({ code: 'unreachable-step', step: 'b' }),
      expect.objectContaining({ code: 'unreachable-step', step: 'c' }),
    ]);
  });

  it('finds a reference to a step that does not run before the referring one', async () => {
    const result = await validateDefinition(
      { name: 'w', steps: [tool('a'), tool('b', { timeZone: '{{ steps.c.output }}' }), tool('c')], edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }] },
      context(),
    );
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: 'step-reference-not-upstream', step: 'b' })]);
  });

  it('reads condition references from the CEL syntax tree, dotted or indexed', async () => {
    const branch = (condition: string) => ({
      name: 'check',
      type: 'ConditionalBranch',
      configuration: { type: 'ConditionalBranch', condition, ifTrue: 'y', ifFalse: 'n' },
    });
    const edges = [{ from: 'a', to: 'check' }, { from: 'check', to: 'y' }, { from: 'check', to: 'n' }];
    const ok = await validateDefinition({ name: 'w', steps: [tool('a'), branch('steps["a"].output.epochMs > 0 && steps.a.output != null'), tool('y'), tool('n')], edges }, context());
    expect(ok.diagnostics).toEqual([]);
    const bad = await validateDefinition({ name: 'w', steps: [tool('a'), branch('steps.y.output == 1'), tool('y'), tool('n')], edges }, context());
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['step-reference-not-upstream']);
  });

  it('rejects a sub-plan chain nested more than five deep and one that invokes the workflow being defined', async () => {
    const deep = stored('deep', 5, ['x']);
    const subPlan = (workflowId: string) => ({ name: 'sub', type: 'SubPlanInvocation', configuration: { type: 'SubPlanInvocation', workflowId } });
    const tooDeep = await validateDefinition({ name: 'w', steps: [subPlan('deep')] }, context([deep]));
    expect(tooDeep.diagnostics.map((d) => d.code)).toEqual(['sub-plan-too-deep']);
    const self = await validateDefinition({ name: 'w', steps: [subPlan('me')] }, context([], { selfId: 'me' }));
    expect(self.diagnostics.map((d) => d.code)).toEqual(['sub-plan-recursion']);
  });

  it('detects recursion along a chain of stored workflows', async () => {
    // Not constructible through the API (ids are minted at submit), so stored directly.
    const loopA = stored('loop-a', 1, ['loop-b']);
    const loopB = stored('loop-b', 1, ['loop-a']);
    const result = await validateDefinition(
      { name: 'w', steps: [{ name: 'sub', type: 'SubPlanInvocation', configuration: { type: 'SubPlanInvocation', workflowId: 'loop-a' } }] },
      context([loopA, loopB]),
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual(['sub-plan-recursion']);
  });

  it('counts the steps of sub-plans against MaxSteps', async () => {
    const big = stored('big', 0, [], 9);
    const result = await validateDefinition(
      { name: 'w', steps: [tool('a'), { name: 'sub', type: 'SubPlanInvocation', configuration: { type: 'SubPlanInvocation', workflowId: 'big' } }], edges: [{ from: 'a', to: 'sub' }] },
      context([big]),
    );
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: 'too-many-steps', message: expect.stringContaining('11 steps') })]);
  });

  it('names an unknown field anywhere in the definition, with the near miss it probably meant', async () => {
    const result = await validateDefinition(
      {
        name: 'w',
        steps: [{ name: 'a', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', paramters: { timeZone: 'UTC' } }, note: 1 }],
        configuration: { entry: 'a' },
      },
      context(),
    );
    expect(result.diagnostics).toEqual([
      { code: 'unknown-field', message: "The workflow configuration has an unknown field 'entry'; allowed: entryStep, input." },
      { code: 'unknown-field', step: 'a', message: "Step 'a' has an unknown field 'note'; allowed: name, type, configuration." },
      { code: 'unknown-field', step: 'a', message: "Step 'a' configuration has an unknown field 'paramters' (did you mean 'parameters'?); allowed: type, tool, operation, parameters." },
    ]);
  });

  it('reports a misspelled edges field as one unknown field, not as unreachable steps', async () => {
    const result = await validateDefinition({ name: 'w', steps: [tool('a'), tool('b'), tool('c')], edgez: [{ from: 'a', to: 'b' }] }, context());
    expect(result.diagnostics).toEqual([
      { code: 'unknown-field', message: "The workflow has an unknown field 'edgez' (did you mean 'edges'?); allowed: name, steps, edges, configuration." },
    ]);
  });

  it('refuses an unknown tool, an undeclared operation and literal parameters that break the schema, naming the step', async () => {
    const use = (name: string, configuration: Record<string, unknown>) => ({ name, type: 'ToolUse', configuration: { type: 'ToolUse', ...configuration } });
    const result = await validateDefinition(
      {
        name: 'w',
        steps: [
          use('a', { tool: 'clok', operation: 'now' }),
          use('b', { tool: 'clock', operation: 'nowz' }),
          use('c', { tool: 'clock', operation: 'now', parameters: { timeZone: 7 } }),
          use('d', { tool: 'clock', operation: 'convert', parameters: { time: '{{ input.when }}', to: '{{ input.zone }}' } }),
          use('e', { tool: 'clock', operation: 'convert', parameters: { to: '{{ input.zone }}' } }),
        ],
        edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'd' }, { from: 'd', to: 'e' }],
      },
      context(),
    );
    expect(result.diagnostics).toEqual([
      { code: 'unknown-tool', step: 'a', message: "Step 'a': 'tool' names no tool this host offers (did you mean 'clock'?); see GET /api/tools." },
      { code: 'unknown-operation', step: 'b', message: "Step 'b': 'operation' must be one of the operations 'clock' declares: now, convert." },
      { code: 'invalid-parameters', step: 'c', message: "Step 'c': the parameters of 'clock.now' are invalid: parameters/timeZone must be string." },
      { code: 'invalid-parameters', step: 'e', message: "Step 'e': the parameters of 'clock.convert' are invalid: parameters must have required property 'time'." },
    ]);
  });
});
