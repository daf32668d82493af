// Runs on the condition evaluator's threads (condition-evaluator.ts): one condition over the data the run
// sent as JSON text (moved as one string, parsed here in `prepare`, outside the time bound on the work),
// evaluated synchronously and without a bound of its own: the thread's time and heap limits are the bound,
// and stopping the thread is how a condition past them is stopped.
import { evaluateCondition, type ConditionResult } from '../definition/condition.js';

export interface ConditionRequest {
  readonly expression: string;
  /** JSON text of the input (an object), or of `{}` when the condition does not read it. */
  readonly input: string;
  /** JSON text of the settled steps the condition reads, by name. */
  readonly steps: string;
}

interface PreparedCondition {
  readonly expression: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly steps: Readonly<Record<string, unknown>>;
}

export function prepare(request: unknown): PreparedCondition {
  const { expression, input, steps } = request as ConditionRequest;
  return { expression, input: JSON.parse(input) as Record<string, unknown>, steps: JSON.parse(steps) as Record<string, unknown> };
}

export function handle(prepared: unknown): ConditionResult {
  const { expression, input, steps } = prepared as PreparedCondition;
  return evaluateCondition(expression, { input, steps });
}
