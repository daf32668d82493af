// The legal moves of SPEC.md's run state table as pure functions: Queued → Running → Succeeded/Failed,
// and Queued → Failed for a run that never started. Anything else does not type-check.
import type { BundleRunRecord, FailedRun, LiveRunRecord, QueuedRun, RunOutcome, RunUsage, RunningRun, SucceededRun } from './run-record.js';
import type { RunError } from './run-errors.js';

export function startRun(run: QueuedRun, now: number): RunningRun {
  const { reservationExpiresAt: _reservation, status: _status, ...rest } = run;
  return { ...rest, status: 'Running', startedAt: now };
}

export function succeedRun(run: RunningRun, result: RunOutcome, usage: RunUsage, now: number): SucceededRun {
  const { jobId, handle, ownerId, mode, createdAt, startedAt } = run;
  return { jobId, handle, ownerId, mode, createdAt, ...originOf(run), startedAt, status: 'Succeeded', completedAt: now, result, usage };
}

export function failRun(run: LiveRunRecord, error: RunError, now: number): FailedRun {
  const { jobId, handle, ownerId, mode, createdAt } = run;
  const startedAt = run.status === 'Running' ? run.startedAt : null;
  return { jobId, handle, ownerId, mode, createdAt, ...originOf(run), startedAt, status: 'Failed', completedAt: now, error };
}

/** The channel and A2A context a run keeps to its end (present only on runs started over A2A). */
function originOf(run: BundleRunRecord): Pick<BundleRunRecord, 'channel' | 'contextId'> {
  return run.channel === undefined ? {} : { channel: run.channel, ...(run.contextId === undefined ? {} : { contextId: run.contextId }) };
}
