// One line about a finished bundle run from its poll body: turns, tool calls, tokens and what they cost
// (DESIGN §16's `usage.costUsd`, absent on runs stored before pricing), and why it stopped early when
// it did (the spend limit, the token budget).
import type { BundleRun } from '../api/types';
import { dollars } from './format';

export function runSummary(run: BundleRun): string {
  const parts: string[] = [];
  if (run.result !== null) parts.push(`${run.result.turnCount} turn(s), ${run.result.totalToolInvocations} tool call(s)`);
  if (run.usage !== undefined) parts.push(`${(run.usage.inputTokens + run.usage.outputTokens).toLocaleString('en-US')} tokens`);
  if (run.usage?.costUsd !== undefined) parts.push(dollars(run.usage.costUsd));
  return parts.join(' · ');
}

/** Why a run that succeeded stopped before answering (the spend limit was reached…), else null. */
export function stoppedEarly(run: BundleRun): string | null {
  return run.result?.budgetExhausted === true ? (run.result.conversationError ?? 'Stopped early on its budget.') : null;
}
