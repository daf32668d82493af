// DESIGN.md §7's classification of a case that ran: failed when an error-severity assertion failed,
// warned when only warnings failed, else passed. (Errored is decided before assertions run.)
import type { AssertionResult, CaseOutcome } from './case-execution.js';

export function classifyCase(assertions: readonly AssertionResult[]): Exclude<CaseOutcome, 'errored'> {
  const failures = assertions.filter((a) => !a.passed);
  if (failures.some((a) => a.severity === 'error')) return 'failed';
  return failures.length > 0 ? 'warned' : 'passed';
}
