// Builds what a finished run reports (DESIGN.md §7): counts, verdict, cost and the `report` object with
// the per-dataset and per-tag tallies, tokens, flaky cases and pass^k, and — with a baseline (§19) —
// its comparison; `failOnRegression` makes any regression a Fail. Per-case results stay out of it.
import type { CaseResult } from '../runner/case-execution.js';
import type { EvalReport, Verdict } from '../schemas.js';
import { costUsd, type Pricing } from '../../platform/spend/index.js';
import { compare, type Baseline } from './comparison.js';
import { stabilityOf } from './stability.js';
import { add, emptyTally, tally, type Tally } from './tally.js';
import { failRate, verdictOf } from './verdict.js';

export interface RunCounts extends Tally {
  readonly total: number;
}

export interface BuiltReport {
  readonly counts: RunCounts;
  readonly verdict: Verdict;
  readonly costUsd: number;
  readonly report: EvalReport;
}

export interface ReportOptions {
  readonly datasets: readonly string[];
  readonly repeats: number;
  readonly failRateThreshold: number;
  readonly pricing: Pricing;
  readonly baseline?: Baseline;
  readonly failOnRegression?: boolean;
}

export function buildReport(results: readonly CaseResult[], options: ReportOptions): BuiltReport {
  const counts = tally(results);
  const tokens = results.reduce((sum, r) => ({ input: sum.input + r.tokens.input, output: sum.output + r.tokens.output }), { input: 0, output: 0 });
  const stability = stabilityOf(results);
  const comparison = options.baseline === undefined ? undefined : compare(options.baseline, results);
  const regressed = comparison !== undefined && comparison.regressions.length > 0 && options.failOnRegression === true;
  return {
    counts: { ...counts, total: results.length },
    verdict: regressed ? 'Fail' : verdictOf(counts, options.failRateThreshold),
    costUsd: costUsd(tokens, options.pricing),
    report: {
      failRate: failRate(counts),
      failRateThreshold: options.failRateThreshold,
      repeats: options.repeats,
      byDataset: options.datasets.map((name) => ({ name, ...tally(results.filter((r) => r.dataset === name)) })),
      byTag: byTag(results),
      tokens,
      flakyCases: stability.flaky,
      passAtK: stability.passAtK,
      ...(comparison === undefined ? {} : { comparison: { ...comparison, regressions: [...comparison.regressions], improvements: [...comparison.improvements] } }),
    },
  };
}

function byTag(results: readonly CaseResult[]): Array<{ tag: string } & Tally> {
  const tags = new Map<string, Tally>();
  for (const result of results) {
    for (const tag of result.tags) {
      const counts = tags.get(tag) ?? emptyTally();
      add(counts, result.outcome);
      tags.set(tag, counts);
    }
  }
  return [...tags.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tag, counts]) => ({ tag, ...counts }));
}
