// SubPlanInvocation: runs another workflow of the same caller inside this step. The child sees its
// own default input overlaid with the parent's input; its steps appear in the run under this step's
// path; the output is the child's outputs by step name. A failed child step fails this step.
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { STEP_CANCELLED } from '../engine/step-errors.js';
import { SUB_PLAN_MISSING } from './step-failures.js';

export function createSubPlanRunner(): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const child = context.step.child;
    if (child === undefined || child === null) return { ok: false, error: SUB_PLAN_MISSING };
    const outcome = await context.runChild(child, { ...child.input, ...context.input });
    switch (outcome.status) {
      case 'Succeeded':
        return { ok: true, output: outcome.outputs };
      case 'Failed':
        return { ok: false, error: `The sub-plan step '${outcome.step.name}' failed: ${outcome.error}` };
      case 'Cancelled':
      case 'Interrupted':
        return { ok: false, error: STEP_CANCELLED };
    }
  };
}
