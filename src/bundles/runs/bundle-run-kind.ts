// Bundle runs as the run engine knows them: records in the `bundle-run` collection, live while Queued
// or Running, dispatched MaxConcurrentDispatchedBundleRuns at a time on each instance. A run begins
// Running. A run whose lease lapsed is never replayed: a background run that never started runs
// here; one that was Running on a dead (or stopped) instance ends Failed with DESIGN §11's "The host
// executing this run stopped." (its tools may have had effects); an unopened stream reservation ends
// Failed as reclaimed. Settle writes the end and its terminal frame (RUN_FINISHED or RUN_ERROR) in one
// commit, so a stream following the journal ends exactly once.
import type { RunEnding, RunKind, SettlingRun } from '../../runs/index.js';
import type { BundleFrame } from './bundle-frame.js';
import type { BundleOutcome, BundleRunExecutor } from './bundle-run-executor.js';
import { RUN_CANCELLED, RUN_HANDLE_EXPIRED, RUN_HOST_STOPPED, RUN_RESERVATION_EXPIRED, RUN_STREAM_CLIENT_TOO_SLOW, RUN_UNHANDLED_EXCEPTION, type RunError } from './run-errors.js';
import { isTerminal, type BundleRunRecord, type LiveRunRecord, type TerminalRunRecord } from './run-record.js';
import { LIVE_STATES, RUN_COLLECTION } from './bundle-run-store.js';
import { failRun, startRun, succeedRun } from './run-transitions.js';

export function bundleRunKind(options: {
  readonly executor: BundleRunExecutor;
  readonly maxConcurrent: number;
  readonly runRecordTtlMs: number;
  readonly log: { info(details: object, message: string): void };
}): RunKind<BundleRunRecord, BundleOutcome> {
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    lane: { maxConcurrent: options.maxConcurrent },
    begin: (record, now) => (record.data.status === 'Queued' ? { state: 'Running', data: startRun(record.data, now) } : null),
    resumes: (record) => record.data.status === 'Queued' && record.data.mode === 'background',
    execute: (run) => options.executor.execute(run),
    // Text deltas of one message waiting for the same commit are one delta: fewer events, same text.
    mergeEvents: (previous, next) => {
      const a = previous as BundleFrame;
      const b = next as BundleFrame;
      if (a.type !== 'TEXT_MESSAGE_CONTENT' || b.type !== 'TEXT_MESSAGE_CONTENT' || a.messageId !== b.messageId) return undefined;
      return { ...a, delta: a.delta + b.delta };
    },
    settle: async (run, ending) => {
      const live = run.record.data;
      if (isTerminal(live)) return null;
      const { final, frame } = endOf(live, ending, run);
      const done = await run.commit({ events: [frame], record: { patch: { state: final.status, data: final, lease: null, expiresAt: run.now + options.runRecordTtlMs } } });
      if (!done.committed) return null;
      options.log.info({ jobId: final.jobId, status: final.status }, 'bundle run ended');
      return final.status;
    },
  };
}

function endOf(run: LiveRunRecord, ending: RunEnding<BundleOutcome>, settling: SettlingRun<BundleRunRecord>): { final: TerminalRunRecord; frame: BundleFrame } {
  const now = settling.now;
  const failed = (error: RunError, at = now, started = true): { final: TerminalRunRecord; frame: BundleFrame } => {
    const final = failRun(run, error, at);
    return { final: started ? final : { ...final, startedAt: null }, frame: { type: 'RUN_ERROR', message: error } };
  };
  switch (ending.type) {
    case 'completed': {
      const outcome = ending.outcome;
      // The handle went before the conversation could start: the run never started (SPEC.md's table).
      if (outcome.type === 'handle-expired') return failed(RUN_HANDLE_EXPIRED, now, false);
      if (run.status !== 'Running') return failed(RUN_UNHANDLED_EXCEPTION);
      return { final: succeedRun(run, outcome.result, outcome.usage, now), frame: { type: 'RUN_FINISHED', threadId: run.handle, runId: run.jobId } };
    }
    case 'stopped':
      // A cancel (or, on a storage nobody else shares, the host stopping) ends it as cancelled; a
      // stream client that stopped reading says so.
      return failed(ending.stopped.reason === RUN_STREAM_CLIENT_TOO_SLOW ? RUN_STREAM_CLIENT_TOO_SLOW : RUN_CANCELLED);
    case 'crashed':
      return failed(RUN_UNHANDLED_EXCEPTION);
    case 'abandoned':
      if (run.status === 'Queued') return failed(RUN_RESERVATION_EXPIRED, Math.min(now, run.reservationExpiresAt ?? now));
      return failed(RUN_HOST_STOPPED);
  }
}
