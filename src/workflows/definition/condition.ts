// ConditionalBranch conditions: CEL over `input` and `steps` (both maps). At submit a condition must
// parse, type-check, yield `bool` (or `dyn`, checked again when it runs) and be knowably within its
// cost budget (condition-cost.ts); at run time any other result, or an evaluation error, fails the step.
// Error texts are the library's one-line summaries. Evaluation here is synchronous and unbounded: runs
// evaluate on a worker thread under a time limit (steps/condition-evaluator.ts), never on the event loop.
import { Environment } from '../../platform/vendor/cel.js';
import type { ASTNode } from '@marcbachmann/cel-js';
import { conditionCost } from './condition-cost.js';
import { conditionReads, type ConditionReads } from './condition-reads.js';

// Registered once at import and never changed afterwards; parse/check/evaluate do not mutate it.
const environment = new Environment({
  limits: { maxAstNodes: 2_000, maxDepth: 64, maxListElements: 256, maxMapEntries: 256, maxCallArguments: 16 },
})
  .registerVariable('input', 'map')
  .registerVariable('steps', 'map');

export type ConditionCheck =
  | { readonly ok: true; readonly referencedSteps: readonly string[] }
  | { readonly ok: false; readonly code: 'invalid-condition' | 'condition-not-boolean' | 'condition-too-costly'; readonly message: string };

export function checkCondition(expression: string): ConditionCheck {
  const result = environment.check(expression);
  if (!result.valid) {
    return { ok: false, code: 'invalid-condition', message: summary(result.error) };
  }
  const { ast } = environment.parse(expression);
  if (callsFunction(ast, 'matches')) {
    // JavaScript regexes backtrack; a condition over caller-controlled input must not be able to stall
    // the host. Comparisons, `contains`, `startsWith` and `endsWith` cover string tests.
    return { ok: false, code: 'invalid-condition', message: 'regular-expression matching (matches) is not allowed in conditions' };
  }
  if (result.type !== 'bool' && result.type !== 'dyn') {
    return { ok: false, code: 'condition-not-boolean', message: `it yields ${result.type ?? 'an unknown type'}, not bool` };
  }
  const cost = conditionCost(ast);
  if (!cost.ok) return { ok: false, code: 'condition-too-costly', message: cost.message };
  return { ok: true, referencedSteps: conditionReads(ast).namedSteps };
}

/** What a stored condition reads of the run; everything when it no longer parses (evaluating it will say why). */
export function readsOfCondition(expression: string): ConditionReads {
  try {
    return conditionReads(environment.parse(expression).ast);
  } catch {
    return { input: true, namedSteps: [], allSteps: true };
  }
}

export type ConditionResult = { readonly ok: true; readonly value: boolean } | { readonly ok: false; readonly error: string };

export function evaluateCondition(
  expression: string,
  context: { readonly input: Readonly<Record<string, unknown>>; readonly steps: Readonly<Record<string, unknown>> },
): ConditionResult {
  let value: unknown;
  try {
    value = environment.parse(expression)(context);
  } catch (error) {
    return { ok: false, error: `The condition could not be evaluated: ${summary(error)}.` };
  }
  if (typeof value !== 'boolean') return { ok: false, error: 'The condition did not yield a boolean.' };
  return { ok: true, value };
}

function summary(error: unknown): string {
  const text = typeof error === 'object' && error !== null && 'summary' in error ? String(error.summary) : 'invalid expression';
  return text.split('\n')[0]!.slice(0, 200);
}

/** True when the expression calls `name` as a function or a method anywhere. */
function callsFunction(ast: ASTNode, name: string): boolean {
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (typeof node !== 'object' || node === null || !('op' in node)) return false;
    const { op, args } = node as { op: string; args: unknown };
    if ((op === 'call' || op === 'rcall') && Array.isArray(args) && args[0] === name) return true;
    return visit(args);
  };
  return visit(ast);
}
