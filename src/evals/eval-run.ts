// An eval run's records, all plain data. While Queued or Running the run record holds the parsed
// submission (datasets and options: what any instance needs to run it, or to resume it after a
// takeover) and each judged case is a checkpoint item. Once finished the record keeps the summary
// (status, counts, verdict, duration, cost), and the details — dataset names, the report and the
// per-case results behind report.xml — are filed beside it and reclaimed RunRecordTtl later.
import type { ResolvedEnvelope } from '../platform/envelope/index.js';
import type { Dataset } from './datasets/dataset.js';
import type { RunCounts } from './report/build-report.js';
import type { Baseline } from './report/comparison.js';
import type { ReplayMode } from './recording/recording.js';
import type { CaseResult } from './runner/case-execution.js';
import type { EvalReport, Verdict } from './schemas.js';

export interface RunOptions {
  readonly repeats: number;
  readonly parallelism: number;
  readonly failRateThreshold: number;
  readonly tagFilter: readonly string[] | null;
  /** With a baseline: any regression makes the verdict Fail (absent in runs stored before DESIGN §19). */
  readonly failOnRegression?: boolean;
  /** How recorded cases are answered (absent: "none"). */
  readonly replay?: ReplayMode;
}

export type LiveStatus = 'Queued' | 'Running';
export type FinishedStatus = 'Succeeded' | 'Failed' | 'Cancelled';

export interface RunOutcome {
  readonly counts: RunCounts;
  readonly verdict: Verdict;
  readonly durationMs: number;
  readonly costUsd: number;
}

export interface EvalRunData {
  readonly jobId: string;
  readonly ownerId: string;
  readonly createdAt: number;
  readonly status: LiveStatus | FinishedStatus;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  /** The submission while live; null once finished (the details keep what the report needs). */
  readonly submission: {
    readonly datasets: readonly Dataset[];
    readonly options: RunOptions;
    /** The STARTING caller's envelope, captured at start and applied for the whole run. */
    readonly envelope: ResolvedEnvelope;
    /** Every case a turn of the caller's uploaded bundle (DESIGN §19), in place of the datasets' subjects. */
    readonly subject?: { readonly handle: string };
    /** The baseline run's case outcomes, read at start (its details may be reclaimed before this run ends). */
    readonly baseline?: Baseline;
  } | null;
  /** Dataset names (what a live run's poll body lists). */
  readonly datasetNames: readonly string[];
  /** Present when Succeeded. */
  readonly outcome: RunOutcome | null;
}

export interface RunDetails {
  readonly datasets: readonly string[];
  readonly repeats: number;
  /** Present when Succeeded. */
  readonly report: EvalReport | null;
  readonly cases: readonly CaseResult[];
}

/** A finished run as its poll and report.xml read it (the summary plus, until reclaimed, its details). */
export interface FiledRun {
  readonly jobId: string;
  readonly ownerId: string;
  readonly status: FinishedStatus;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly completedAt: number;
  readonly outcome: RunOutcome | null;
}
