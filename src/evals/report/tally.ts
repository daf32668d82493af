// Counting case outcomes: a case counts once per repeat (DESIGN.md §7).
import type { CaseOutcome, CaseResult } from '../runner/case-execution.js';

export interface Tally {
  passed: number;
  failed: number;
  warned: number;
  errored: number;
}

export function emptyTally(): Tally {
  return { passed: 0, failed: 0, warned: 0, errored: 0 };
}

export function tally(results: readonly CaseResult[]): Tally {
  const counts = emptyTally();
  for (const result of results) add(counts, result.outcome);
  return counts;
}

export function add(counts: Tally, outcome: CaseOutcome): void {
  counts[outcome] += 1;
}
