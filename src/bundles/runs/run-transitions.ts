// The legal moves of SPEC.md's run state table as pure functions: Queued → Running → Succeeded/Failed,
// and Queued → Failed for a run that never started. Anything else does not type-check. A finished run
// keeps the user messages its turns received (redacted): a Succeeded run the first `turnCount` of them;
// a Failed one that started every message up to maxTurns (where it stopped is not recorded), one that
// never started none.
import { redactText } from '../../platform/redaction/index.js';
import type { BundleRunRecord, FailedRun, LiveRunRecord, QueuedRun, RunInput, RunOutcome, RunUsage, RunningRun, SucceededRun } from './run-record.js';
import type { RunError } from './run-errors.js';

export function startRun(run: QueuedRun, now: number): RunningRun {
  const { reservationExpiresAt: _reservation, status: _status, ...rest } = run;
  return { ...rest, status: 'Running', startedAt: now };
}

export function succeedRun(run: RunningRun, result: RunOutcome, usage: RunUsage, now: number): SucceededRun {
  const { jobId, handle, ownerId, mode, createdAt, startedAt } = run;
  const userMessages = received(run.input, result.turnCount);
  return { jobId, handle, ownerId, mode, createdAt, ...originOf(run), ...agentOf(run), startedAt, status: 'Succeeded', completedAt: now, result, usage, userMessages };
}

export function failRun(run: LiveRunRecord, error: RunError, now: number): FailedRun {
  const { jobId, handle, ownerId, mode, createdAt } = run;
  const started = run.status === 'Running';
  const startedAt = started ? run.startedAt : null;
  const userMessages = started ? received(run.input, run.input.maxTurns) : [];
  return { jobId, handle, ownerId, mode, createdAt, ...originOf(run), ...agentOf(run), startedAt, status: 'Failed', completedAt: now, error, userMessages };
}

function received(input: RunInput, turns: number): string[] {
  return input.userMessages.slice(0, Math.min(turns, input.maxTurns)).map((message) => redactText(message));
}

function agentOf(run: LiveRunRecord): { agent?: string } {
  return run.agent === undefined ? {} : { agent: run.agent };
}

/** The channel and A2A context a run keeps to its end (present only on runs started over A2A). */
function originOf(run: BundleRunRecord): Pick<BundleRunRecord, 'channel' | 'contextId'> {
  return run.channel === undefined ? {} : { channel: run.channel, ...(run.contextId === undefined ? {} : { contextId: run.contextId }) };
}
