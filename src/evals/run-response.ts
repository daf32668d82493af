// The poll body (DESIGN.md §7) of a live or a finished run. Counts, verdict, duration, cost and the
// report appear once Succeeded; `datasets` is empty and `report` absent once the submission was
// reclaimed. Per-case results never appear here; a polled live run tells how many case executions are judged.
import type { EvalRunData, FiledRun, RunDetails } from './eval-run.js';
import type { EvalRunResponse } from './schemas.js';
import { isoInstant } from '../platform/clock/index.js';

export function liveRunResponse(run: EvalRunData & { status: 'Queued' | 'Running' }, progress?: { completed: number; total: number }): EvalRunResponse {
  return {
    ...(progress === undefined ? {} : { progress }),
    jobId: run.jobId,
    status: run.status,
    createdAt: iso(run.createdAt),
    startedAt: run.startedAt === null ? null : iso(run.startedAt),
    completedAt: null,
    datasets: [...run.datasetNames],
  };
}

export function filedRunResponse(run: FiledRun, details: RunDetails | undefined): EvalRunResponse {
  return {
    jobId: run.jobId,
    status: run.status,
    createdAt: iso(run.createdAt),
    startedAt: run.startedAt === null ? null : iso(run.startedAt),
    completedAt: iso(run.completedAt),
    ...(run.outcome === null ? {} : run.outcome),
    datasets: details === undefined ? [] : [...details.datasets],
    ...(details?.report ? { report: details.report } : {}),
  };
}

export function statusUrl(jobId: string): string {
  return `/api/evals/runs/${encodeURIComponent(jobId)}`;
}

function iso(epochMs: number): string {
  return isoInstant(epochMs);
}
