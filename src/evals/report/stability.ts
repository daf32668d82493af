// Across repeats, each case is stable-pass (every repeat passed or only warned), stable-fail (none did)
// or flaky (some did). pass^k is the share of cases that passed in all k of their repeats — the
// probability that k tries in a row all succeed, which is what a user of a flaky agent experiences.
import type { CaseResult } from '../runner/case-execution.js';

export interface Stability {
  readonly stablePass: number;
  readonly flaky: number;
  readonly stableFail: number;
  readonly passAtK: number;
}

export function stabilityOf(results: readonly CaseResult[]): Stability {
  const byCase = new Map<string, { runs: number; passes: number }>();
  for (const result of results) {
    const key = JSON.stringify([result.dataset, result.caseId]);
    const entry = byCase.get(key) ?? { runs: 0, passes: 0 };
    entry.runs += 1;
    if (result.outcome === 'passed' || result.outcome === 'warned') entry.passes += 1;
    byCase.set(key, entry);
  }
  let stablePass = 0;
  let flaky = 0;
  for (const { runs, passes } of byCase.values()) {
    if (passes === runs) stablePass += 1;
    else if (passes > 0) flaky += 1;
  }
  const cases = byCase.size;
  return { stablePass, flaky, stableFail: cases - stablePass - flaky, passAtK: cases === 0 ? 0 : stablePass / cases };
}
