// SubPlanInvocation targets: another stored workflow of the same caller (a foreign id is looked up
// under the caller and so reads exactly like an unknown one), no recursion back into the workflow
// being defined or along the chain, nesting at most MAX_SUB_PLAN_DEPTH deep, and the steps of the
// whole expansion within MaxSteps.
import type { DiagnosticList } from './diagnostic.js';
import type { ReadDefinition } from './read-definition.js';
import { MAX_SUB_PLAN_DEPTH, type StoredWorkflow } from './workflow-definition.js';

/** The caller's own stored workflow with that id, or undefined. */
export type WorkflowLookup = (workflowId: string) => Promise<StoredWorkflow | undefined>;

export interface SubPlanShape {
  readonly expandedStepCount: number;
  readonly subPlanDepth: number;
}

export async function checkSubPlans(
  definition: ReadDefinition,
  context: { readonly selfId: string | undefined; readonly lookup: WorkflowLookup; readonly maxSteps: number },
  diagnostics: DiagnosticList,
): Promise<SubPlanShape> {
  let expandedStepCount = definition.steps.length;
  let subPlanDepth = 0;
  for (const step of definition.steps) {
    const configuration = step.configuration;
    if (configuration?.type !== 'SubPlanInvocation' || configuration.workflowId === '') continue;
    const at = step.name === undefined ? {} : { step: step.name };
    const label = step.name === undefined ? `Step ${step.index}` : `Step '${step.name}'`;
    if (configuration.workflowId === context.selfId) {
      diagnostics.add('sub-plan-recursion', `${label} invokes the workflow being defined.`, at);
      continue;
    }
    const child = await context.lookup(configuration.workflowId);
    if (child === undefined) {
      diagnostics.add('unknown-workflow', `${label} invokes a workflow that does not exist.`, at);
      continue;
    }
    if (await recurses(child, context.selfId, context.lookup)) {
      diagnostics.add('sub-plan-recursion', `${label} invokes workflow '${child.name}', whose sub-plans lead back into themselves.`, at);
      continue;
    }
    if (child.subPlanDepth + 1 > MAX_SUB_PLAN_DEPTH) {
      diagnostics.add('sub-plan-too-deep', `${label} nests sub-plans ${child.subPlanDepth + 1} levels deep; at most ${MAX_SUB_PLAN_DEPTH} are allowed.`, at);
      continue;
    }
    expandedStepCount += child.expandedStepCount;
    subPlanDepth = Math.max(subPlanDepth, child.subPlanDepth + 1);
  }
  if (expandedStepCount > context.maxSteps && definition.steps.length <= context.maxSteps) {
    diagnostics.add('too-many-steps', `With the steps of its sub-plans the workflow has ${expandedStepCount} steps; at most ${context.maxSteps} are allowed.`);
  }
  return { expandedStepCount, subPlanDepth };
}

/** True when the chain below `root` revisits a workflow on its own path or reaches `selfId`. */
async function recurses(root: StoredWorkflow, selfId: string | undefined, lookup: WorkflowLookup): Promise<boolean> {
  const path = new Set<string>();
  const safe = new Set<string>(); // subtrees already walked without finding recursion
  const visit = async (workflow: StoredWorkflow, depth: number): Promise<boolean> => {
    if (workflow.id === selfId || path.has(workflow.id)) return true;
    if (safe.has(workflow.id) || depth > MAX_SUB_PLAN_DEPTH + 1) return false; // too deep is its own diagnostic
    path.add(workflow.id);
    for (const step of workflow.steps) {
      if (step.configuration.type !== 'SubPlanInvocation') continue;
      const child = await lookup(step.configuration.workflowId);
      if (child !== undefined && (await visit(child, depth + 1))) return true;
    }
    path.delete(workflow.id);
    safe.add(workflow.id);
    return false;
  };
  return visit(root, 1);
}
