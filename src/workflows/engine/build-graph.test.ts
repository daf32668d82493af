// Compiling a stored workflow into its graph: once per frozen definition that reaches no sub-plan
// (every run of it shares that frozen graph), anew otherwise.
import { describe, expect, it } from 'vitest';
import { deepFreezeJson } from '../../platform/storage/deep-freeze-json.js';
import type { DefinitionEdge, StoredStep, StoredWorkflow } from '../definition/workflow-definition.js';
import { buildGraph, flattenGraph, graphOf } from './build-graph.js';

const toolStep = (name: string): StoredStep => ({ id: `id-${name}`, name, type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } });

function workflow(id: string, steps: StoredStep[], edges: DefinitionEdge[]): StoredWorkflow {
  return { id, ownerId: 'sub:o', name: id, createdAt: 0, steps, edges, entryStep: steps[0]!.name, input: {}, expandedStepCount: steps.length, subPlanDepth: 0 };
}

const chain = (id: string) => workflow(id, [toolStep('a'), toolStep('b'), toolStep('c')], [{ from: 'a', to: 'b', type: 'ControlFlow' }, { from: 'b', to: 'c', type: 'ControlFlow' }]);

describe('graphOf', () => {
  it('compiles a frozen definition once and hands out the same frozen graph, equal to a fresh build', () => {
    const stored = deepFreezeJson(chain('w1'));
    const graph = graphOf(stored, new Map());
    expect(graphOf(stored, new Map())).toBe(graph);
    expect(graph).toEqual(buildGraph(stored, new Map()));
    expect(Object.isFrozen(graph) && Object.isFrozen(graph.steps) && graph.steps.every((step) => Object.isFrozen(step) && Object.isFrozen(step.successors))).toBe(true);
    expect(graph.steps.map((step) => [step.name, step.successors, step.predecessorCount])).toEqual([['a', [1], 0], ['b', [2], 1], ['c', [], 1]]);
    const flat = flattenGraph(graph);
    expect(flattenGraph(graph)).toBe(flat);
    expect(flat.map((step) => step.path)).toEqual(['a', 'b', 'c']);
  });

  it('builds anew a definition that is not frozen, and one that reaches sub-plans', () => {
    const open = chain('w2');
    expect(graphOf(open, new Map())).not.toBe(graphOf(open, new Map()));
    const child = deepFreezeJson(chain('child'));
    const parent = deepFreezeJson(workflow('parent', [{ id: 'id-sub', name: 'sub', type: 'SubPlanInvocation', configuration: { type: 'SubPlanInvocation', workflowId: 'child' } }], []));
    const plans = new Map([['child', child]]);
    const first = graphOf(parent, plans);
    expect(graphOf(parent, plans)).not.toBe(first);
    expect(flattenGraph(first).map((step) => step.path)).toEqual(['sub', 'sub/a', 'sub/b', 'sub/c']);
  });
});
