// Runs every assertion of a case against what its conversation produced, in order; llm-rubric ones are
// graded by the chat model (their token usage is reported through `onUsage`). A grading failure rejects
// with GradingFailed, which makes the case errored.
import type { ChatModel, TokenUsage } from '../../models/index.js';
import type { Assertion, Observation } from '../assertions/assertion.js';
import { checkAssertion } from '../assertions/check-assertion.js';
import { gradeRubric } from '../assertions/grade-rubric.js';
import type { AssertionResult } from './case-execution.js';

export async function judgeOutput(
  assertions: readonly Assertion[],
  seen: Observation,
  grader: { readonly model: ChatModel; readonly signal: AbortSignal; onUsage(usage: TokenUsage): void },
): Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  for (const assertion of assertions) {
    const { type, severity } = assertion;
    if (assertion.type === 'llm-rubric') {
      const graded = await gradeRubric(grader.model, assertion.value, seen.output, grader.signal);
      grader.onUsage(graded.usage);
      results.push({ type, severity, passed: graded.verdict.passed, reason: graded.verdict.reason ?? null });
    } else {
      const verdict = checkAssertion(assertion, seen);
      results.push({ type, severity, passed: verdict.passed, reason: verdict.passed ? null : verdict.reason });
    }
  }
  return results;
}
