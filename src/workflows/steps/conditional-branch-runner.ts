// ConditionalBranch: evaluates its CEL condition over `input` and `steps` on the condition evaluator
// (off the event loop, under its budget); the boolean is the output and picks the one successor to
// take. A non-boolean result, an evaluation error or a condition past its budget fails the step.
import type { ConditionalBranchConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import type { ConditionEvaluator } from './condition-evaluator.js';

export interface ConditionalBranchDependencies {
  readonly conditions: ConditionEvaluator;
  /** The run's owner: conditions share the evaluator's threads fairly by owner. */
  readonly ownerId: string;
}

export function createConditionalBranchRunner(deps: ConditionalBranchDependencies): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as ConditionalBranchConfiguration;
    const result = await deps.conditions.evaluate(deps.ownerId, configuration.condition, { input: context.input, steps: context.steps }, context.signal);
    if (!result.ok) return { ok: false, error: result.error };
    return { ok: true, output: result.value, take: [result.value ? configuration.ifTrue : configuration.ifFalse] };
  };
}
