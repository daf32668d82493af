// An eval run's records. While Queued or Running it is an ActiveRun (in memory, holding the parsed
// submission). Once finished it is filed into the eval store as a FiledRun (the summary, kept) plus
// RunDetails (dataset names, the report and per-case results behind report.xml), which are reclaimed
// RunRecordTtl after the run finished.
import type { ResolvedEnvelope } from '../platform/envelope/index.js';
import type { Dataset } from './datasets/dataset.js';
import type { RunCounts } from './report/build-report.js';
import type { CaseExecution, CaseResult } from './runner/case-execution.js';
import type { EvalReport, Verdict } from './schemas.js';

export interface RunOptions {
  readonly repeats: number;
  readonly parallelism: number;
  readonly failRateThreshold: number;
  readonly tagFilter: readonly string[] | null;
}

export interface ActiveRun {
  readonly jobId: string;
  readonly ownerId: string;
  readonly createdAt: number;
  readonly datasets: readonly Dataset[];
  readonly executions: readonly CaseExecution[];
  readonly options: RunOptions;
  /** The STARTING caller's envelope, captured at start and applied for the whole run. */
  readonly envelope: ResolvedEnvelope;
  status: 'Queued' | 'Running';
  startedAt: number | null;
}

export type FinishedStatus = 'Succeeded' | 'Failed' | 'Cancelled';

export interface RunOutcome {
  readonly counts: RunCounts;
  readonly verdict: Verdict;
  readonly durationMs: number;
  readonly costUsd: number;
}

export interface FiledRun {
  readonly jobId: string;
  readonly ownerId: string;
  readonly status: FinishedStatus;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly completedAt: number;
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
