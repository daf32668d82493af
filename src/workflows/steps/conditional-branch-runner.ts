// ConditionalBranch: evaluates its CEL condition over `input` and `steps`; the boolean is the output
// and picks the one successor to take. A non-boolean result or an evaluation error fails the step.
import { evaluateCondition } from '../definition/condition.js';
import type { ConditionalBranchConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';

export function createConditionalBranchRunner(): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as ConditionalBranchConfiguration;
    const result = evaluateCondition(configuration.condition, { input: context.input, steps: context.steps });
    if (!result.ok) return { ok: false, error: result.error };
    return { ok: true, output: result.value, take: [result.value ? configuration.ifTrue : configuration.ifFalse] };
  };
}
