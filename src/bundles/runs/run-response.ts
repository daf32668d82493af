// The poll projection (SPEC.md BundleRunResponse, plus DESIGN.md §5's optional `usage`): status,
// timestamps, caller-safe error and result. It reads no execution input, so none can be echoed.
import type { BundleRunRecord } from './run-record.js';
import type { BundleRunResponse } from '../schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export function toRunResponse(run: BundleRunRecord): BundleRunResponse {
  const base = { jobId: run.jobId, status: run.status, createdAt: iso(run.createdAt) };
  switch (run.status) {
    case 'Queued':
      return { ...base, error: null, startedAt: null, completedAt: null, result: null };
    case 'Running':
      return { ...base, error: null, startedAt: iso(run.startedAt), completedAt: null, result: null };
    case 'Succeeded':
      return {
        ...base,
        error: null,
        startedAt: iso(run.startedAt),
        completedAt: iso(run.completedAt),
        result: { ...run.result },
        usage: { ...run.usage },
      };
    case 'Failed':
      return {
        ...base,
        error: run.error,
        startedAt: run.startedAt === null ? null : iso(run.startedAt),
        completedAt: iso(run.completedAt),
        result: null,
      };
  }
}
