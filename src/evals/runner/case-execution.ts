// One unit of work of a run (a case in one repeat) and what came of it. Results are kept for the
// report and the JUnit document; the poll body never carries them.
import type { AssertionType, Severity } from '../assertions/assertion.js';
import type { Dataset, EvalCase } from '../datasets/dataset.js';

export interface CaseExecution {
  readonly dataset: Dataset;
  readonly evalCase: EvalCase;
  /** 1-based. */
  readonly repeat: number;
}

export type CaseOutcome = 'passed' | 'failed' | 'warned' | 'errored';

export interface AssertionResult {
  readonly type: AssertionType;
  readonly severity: Severity;
  readonly passed: boolean;
  /** Why it failed; for llm-rubric also why it passed. */
  readonly reason: string | null;
}

export interface CaseResult {
  readonly dataset: string;
  readonly caseId: string;
  readonly tags: readonly string[];
  readonly repeat: number;
  readonly outcome: CaseOutcome;
  /** Caller-safe reason when errored. */
  readonly error: string | null;
  readonly assertions: readonly AssertionResult[];
  /** The start of the final response (redacted), for the JUnit report. */
  readonly outputExcerpt: string;
  readonly latencyMs: number;
  /** Subject conversation plus llm-rubric grading. */
  readonly tokens: { readonly input: number; readonly output: number };
}
