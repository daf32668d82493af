// A judged case as it is kept (a checkpoint, the run's details): redacted, as redactValue would, but
// without copying a result that carries nothing to redact — nearly all of them. A CaseResult is plain
// data with fixed keys of our own (none holds an anchor of a secret rule, none names a secret, so no
// key, and no key-value pair, ever redacts); only its strings can: the dataset's names, tags and ids,
// the output excerpt, the error and the assertions' reasons. Those are joined and decided in one
// anchor pass (textCarriesNoSecret: no anchor and no escape in any of them means redactText leaves
// each as it is); any other result, or one whose shape is not the known one, takes redactValue's
// copy. Decision 3603: the copy and key-by-key scan of every judged case cost about 16 µs a case,
// twice (its checkpoint and the finished run's details), at 480 cases a run.
import { redactValue, textCarriesNoSecret } from '../../platform/redaction/index.js';
import type { AssertionResult, CaseResult } from './case-execution.js';

/** The keys of a CaseResult and of an AssertionResult; a result with others is copied whole. */
const RESULT_KEYS = 10;
const ASSERTION_KEYS = 4;

export function redactCaseResult(result: CaseResult): CaseResult {
  return caseResultIsClean(result) ? result : redactValue(result);
}

function caseResultIsClean(result: CaseResult): boolean {
  if (Object.keys(result).length !== RESULT_KEYS || typeof result.tokens !== 'object' || result.tokens === null || Object.keys(result.tokens).length !== 2) return false;
  const { input, output } = result.tokens;
  if (typeof input !== 'number' || typeof output !== 'number' || typeof result.repeat !== 'number' || typeof result.latencyMs !== 'number') return false;
  if (!Array.isArray(result.tags) || !Array.isArray(result.assertions)) return false;
  const texts: unknown[] = [result.dataset, result.caseId, result.outcome, result.outputExcerpt, ...(result.tags as readonly unknown[])];
  if (result.error !== null) texts.push(result.error);
  for (const assertion of result.assertions as readonly AssertionResult[]) {
    if (typeof assertion !== 'object' || assertion === null || Object.keys(assertion).length !== ASSERTION_KEYS || typeof assertion.passed !== 'boolean') return false;
    texts.push(assertion.type, assertion.severity);
    if (assertion.reason !== null) texts.push(assertion.reason);
  }
  // A line break cannot be part of an anchor, so joining adds none; it can only split one it never held.
  return texts.every((text) => typeof text === 'string') && textCarriesNoSecret(texts.join('\n'));
}
