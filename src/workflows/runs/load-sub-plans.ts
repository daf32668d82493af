// Snapshots every workflow a run's sub-plans reach (the caller's own, at most MAX_SUB_PLAN_DEPTH
// levels down) when the run starts, so later deletions cannot change a run in flight.
import { MAX_SUB_PLAN_DEPTH, type StoredWorkflow } from '../definition/workflow-definition.js';

export async function loadSubPlans(
  root: StoredWorkflow,
  lookup: (workflowId: string) => Promise<StoredWorkflow | undefined>,
): Promise<Map<string, StoredWorkflow>> {
  const found = new Map<string, StoredWorkflow>();
  let level: StoredWorkflow[] = [root];
  for (let depth = 0; depth < MAX_SUB_PLAN_DEPTH && level.length > 0; depth += 1) {
    const next: StoredWorkflow[] = [];
    for (const workflow of level) {
      for (const step of workflow.steps) {
        if (step.configuration.type !== 'SubPlanInvocation' || found.has(step.configuration.workflowId)) continue;
        const child = await lookup(step.configuration.workflowId);
        if (child === undefined) continue;
        found.set(child.id, child);
        next.push(child);
      }
    }
    level = next;
  }
  return found;
}
