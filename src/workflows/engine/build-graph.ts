// Compiles a stored workflow into the executable graph, resolving sub-plans from the given set of
// workflows (snapshotted when the run starts). A child step's id and name are prefixed with its
// sub-plan step's, so every step of the expansion has a distinct place in the run's step list.
// A stored definition that reaches no sub-plan compiles to the same graph on every run: `graphOf`
// compiles a frozen one once and hands out that frozen graph (a 1,000-step chain spent a tenth of its
// time building its graph twice per run: at start and when it executes).
import { SUB_PLAN_SEPARATOR } from '../definition/step-name.js';
import { MAX_SUB_PLAN_DEPTH, type StoredWorkflow } from '../definition/workflow-definition.js';
import type { GraphStep, WorkflowGraph } from './workflow-graph.js';
import { madeOnce } from '../../platform/memo/index.js';

const compiled = new WeakMap<StoredWorkflow, WorkflowGraph>();
const flattened = new WeakMap<WorkflowGraph, readonly GraphStep[]>();

/** The workflow's graph: built once per frozen stored definition that reaches no sub-plan (the graph is frozen too), else built now. */
export function graphOf(workflow: StoredWorkflow, workflows: ReadonlyMap<string, StoredWorkflow>): WorkflowGraph {
  if (workflows.size > 0) return buildGraph(workflow, workflows);
  return madeOnce(compiled, workflow, (frozen) => freezeGraph(buildGraph(frozen, workflows)));
}

function freezeGraph(graph: WorkflowGraph): WorkflowGraph {
  for (const step of graph.steps) {
    Object.freeze(step.successors);
    if (step.child) freezeGraph(step.child);
    Object.freeze(step);
  }
  Object.freeze(graph.steps);
  return Object.freeze(graph);
}

export function buildGraph(
  workflow: StoredWorkflow,
  workflows: ReadonlyMap<string, StoredWorkflow>,
  prefix: { readonly id: string; readonly path: string } | undefined = undefined,
  depth = 0,
): WorkflowGraph {
  const indexOf = new Map(workflow.steps.map((step, index) => [step.name, index]));
  const successors: number[][] = workflow.steps.map(() => []);
  const predecessorCounts = new Array<number>(workflow.steps.length).fill(0);
  for (const edge of workflow.edges) {
    const from = indexOf.get(edge.from);
    const to = indexOf.get(edge.to);
    if (from === undefined || to === undefined) continue;
    successors[from]!.push(to);
    predecessorCounts[to]! += 1;
  }
  const steps = workflow.steps.map((step, index): GraphStep => {
    const id = prefix === undefined ? step.id : `${prefix.id}${SUB_PLAN_SEPARATOR}${step.id}`;
    const path = prefix === undefined ? step.name : `${prefix.path}${SUB_PLAN_SEPARATOR}${step.name}`;
    const base = {
      index,
      id,
      name: step.name,
      path,
      type: step.type,
      configuration: step.configuration,
      successors: successors[index]!,
      predecessorCount: predecessorCounts[index]!,
    };
    if (step.configuration.type !== 'SubPlanInvocation') return base;
    const target = workflows.get(step.configuration.workflowId);
    const child = target === undefined || depth >= MAX_SUB_PLAN_DEPTH ? null : buildGraph(target, workflows, { id, path }, depth + 1);
    return { ...base, child };
  });
  return { steps, entry: indexOf.get(workflow.entryStep) ?? 0, input: workflow.input };
}

/** Every step of the graph and its sub-plans, parents before their children, in definition order. */
export function flattenGraph(graph: WorkflowGraph): readonly GraphStep[] {
  return madeOnce(flattened, graph, (frozen) => Object.freeze(flatten(frozen)));
}

function flatten(graph: WorkflowGraph): GraphStep[] {
  const out: GraphStep[] = [];
  const visit = (g: WorkflowGraph): void => {
    for (const step of g.steps) {
      out.push(step);
      if (step.child) visit(step.child);
    }
  };
  visit(graph);
  return out;
}
