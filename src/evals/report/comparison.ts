// A run compared with a baseline run of the same caller (DESIGN §19): each case's outcome across its
// repeats is its most frequent one (a tie goes to the lower rank, so a case that failed as often as it
// passed is not called passing); outcomes rank passed > warned > failed = errored, and a case whose
// rank fell is a regression, one whose rank rose an improvement, the rest unchanged. Cases are matched
// by dataset and case id, the dataset by its name without an own dataset's `@<version>` (so
// `mine/faq@2` compares with `mine/faq@1` and `mine/faq`); cases in only one of the runs are left out.
// `dataset` is reported as this run named it.
import type { CaseOutcome, CaseResult } from '../runner/case-execution.js';

/** One case's outcome in the baseline run, kept with the run that compares against it. */
export interface BaselineCase {
  readonly dataset: string;
  readonly caseId: string;
  readonly outcome: CaseOutcome;
}

export interface Baseline {
  readonly jobId: string;
  readonly cases: readonly BaselineCase[];
}

export interface CaseChange {
  readonly dataset: string;
  readonly caseId: string;
  readonly was: CaseOutcome;
  readonly now: CaseOutcome;
}

export interface Comparison {
  readonly baseline: string;
  readonly regressions: readonly CaseChange[];
  readonly improvements: readonly CaseChange[];
  readonly unchanged: number;
}

const RANK: Readonly<Record<CaseOutcome, number>> = { passed: 3, warned: 2, failed: 1, errored: 1 };
/** Most frequent wins; among equals the lower rank, then the order below (failed before errored). */
const ORDER: readonly CaseOutcome[] = ['errored', 'failed', 'warned', 'passed'];

/** Each case's outcome across its repeats, in the order the results first name the cases. */
export function caseOutcomes(results: readonly CaseResult[]): BaselineCase[] {
  const byCase = new Map<string, { dataset: string; caseId: string; counts: Map<CaseOutcome, number> }>();
  for (const result of results) {
    const key = JSON.stringify([result.dataset, result.caseId]);
    const entry = byCase.get(key) ?? { dataset: result.dataset, caseId: result.caseId, counts: new Map<CaseOutcome, number>() };
    entry.counts.set(result.outcome, (entry.counts.get(result.outcome) ?? 0) + 1);
    byCase.set(key, entry);
  }
  return [...byCase.values()].map(({ dataset, caseId, counts }) => ({ dataset, caseId, outcome: mostFrequent(counts) }));
}

export function compare(baseline: Baseline, results: readonly CaseResult[]): Comparison {
  const was = new Map(baseline.cases.map((entry) => [matchKey(entry.dataset, entry.caseId), entry.outcome]));
  const regressions: CaseChange[] = [];
  const improvements: CaseChange[] = [];
  let unchanged = 0;
  for (const now of caseOutcomes(results)) {
    const before = was.get(matchKey(now.dataset, now.caseId));
    if (before === undefined) continue;
    const change = { dataset: now.dataset, caseId: now.caseId, was: before, now: now.outcome };
    if (RANK[now.outcome] < RANK[before]) regressions.push(change);
    else if (RANK[now.outcome] > RANK[before]) improvements.push(change);
    else unchanged += 1;
  }
  return { baseline: baseline.jobId, regressions, improvements, unchanged };
}

function mostFrequent(counts: ReadonlyMap<CaseOutcome, number>): CaseOutcome {
  let best: CaseOutcome = 'errored';
  let most = -1;
  for (const outcome of ORDER) {
    const count = counts.get(outcome) ?? 0;
    if (count > most) {
      best = outcome;
      most = count;
    }
  }
  return best;
}

/** An own dataset's name without its version (`mine/faq@2` → `mine/faq`); host dataset names as they are. */
function matchKey(dataset: string, caseId: string): string {
  const unversioned = dataset.startsWith('mine/') ? dataset.replace(/@\d+$/, '') : dataset;
  return JSON.stringify([unversioned, caseId]);
}
