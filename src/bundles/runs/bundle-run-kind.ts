// Bundle runs as the run engine knows them: records in the `bundle-run` collection, live while Queued
// or Running, dispatched MaxConcurrentDispatchedBundleRuns at a time on each instance. A run begins
// Running. A run whose lease lapsed is never replayed: a background run that never started runs
// here; one that was Running on a dead (or stopped) instance ends Failed with DESIGN §11's "The host
// executing this run stopped." (its tools may have had effects); an unopened stream reservation ends
// Failed as reclaimed. Settle writes the end and its terminal frame (RUN_FINISHED or RUN_ERROR) in one
// commit, so a stream following the journal ends exactly once. A run that stopped for a person's
// decision (DESIGN.md §13) is written Parked — still Running to its caller, no lease, no slot — with a
// RUN_FINISHED frame carrying AG-UI's interrupt outcome, which ends a stream following it. Once decided,
// the resumer (bundle-run-resumer.ts) makes it Queued again with a lease and a verdict, and it begins
// here like any queued run; cancelled while parked, it ends at once and its approval is withdrawn.
import type { RunEnding, RunKind, SettlingRun } from '../../runs/index.js';
import type { BundleFrame } from './bundle-frame.js';
import type { BundleOutcome, BundleRunExecutor } from './bundle-run-executor.js';
import { RUN_CANCELLED, RUN_HANDLE_EXPIRED, RUN_HOST_STOPPED, RUN_RESERVATION_EXPIRED, RUN_STREAM_CLIENT_TOO_SLOW, RUN_UNHANDLED_EXCEPTION, type RunError } from './run-errors.js';
import { isoInstant } from '../../platform/clock/index.js';
import { isTerminal, type BundleRunRecord, type LiveRunRecord, type RunningRun, type TerminalRunRecord } from './run-record.js';
import { LIVE_STATES, PARKED, RUN_COLLECTION } from './bundle-run-store.js';
import { failRun, startRun, succeedRun } from './run-transitions.js';
import { bundleRunEvent } from './bundle-run-event.js';
import type { EventOutbox } from '../../platform/outbox/index.js';

export function bundleRunKind(options: {
  readonly executor: BundleRunExecutor;
  readonly maxConcurrent: number;
  readonly runRecordTtlMs: number;
  readonly log: { info(details: object, message: string): void };
  /** After a run was written Parked: resume it at once if its approval was decided meanwhile. */
  readonly parked: (run: RunningRun) => Promise<void>;
  /** A parked run ended another way (cancelled): its approval is withdrawn. */
  readonly withdraw: (run: RunningRun) => Promise<void>;
  /** Where bundle.run.awaiting_approval and bundle.run.finished are written with the change. */
  readonly events: EventOutbox;
}): RunKind<BundleRunRecord, BundleOutcome> {
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    idleStates: [PARKED],
    lane: { maxConcurrent: options.maxConcurrent },
    begin: (record, now) => {
      if (record.data.status === 'Queued') return { state: 'Running', data: startRun(record.data, now) };
      // Resumed after a decision: Queued in storage, Running to its caller all along.
      if (record.state !== 'Running') return { state: 'Running', data: record.data };
      return null;
    },
    resumes: (record) => (record.data.status === 'Queued' && record.data.mode === 'background') || isResuming(record.state, record.data),
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
      if (ending.type === 'completed' && ending.outcome.type === 'parked' && live.status === 'Running' && ending.stopped === null) {
        const waiting: RunningRun = { ...live, parked: ending.outcome.parked };
        const { waiting: call } = ending.outcome.parked;
        const frame: BundleFrame = {
          type: 'RUN_FINISHED',
          threadId: live.handle,
          runId: live.jobId,
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: call.approvalId,
                reason: 'tool_approval',
                message: `The agent asks to call ${call.tool} (${call.operation}); a person decides.`,
                toolCallId: call.toolCallId,
                ...(call.expiresAt === null ? {} : { expiresAt: isoInstant(call.expiresAt) }),
              },
            ],
          },
        };
        const outbox = await options.events.entriesFor(bundleRunEvent('bundle.run.awaiting_approval', run.key.ownerId, live, call.approvalId), run.now);
        const done = await run.commit({ events: [frame], record: { patch: { state: PARKED, data: waiting, lease: null } }, outbox });
        if (!done.committed) return null;
        options.log.info({ jobId: live.jobId, approvalId: call.approvalId }, 'bundle run parked for a decision');
        await options.parked(waiting);
        return PARKED;
      }
      if (live.status === 'Running' && live.parked !== undefined && live.parked.verdict === undefined) await options.withdraw(live);
      const { final, frame } = endOf(live, ending, run);
      const outbox = await options.events.entriesFor(bundleRunEvent('bundle.run.finished', run.key.ownerId, final), run.now);
      const done = await run.commit({ events: [frame], record: { patch: { state: final.status, data: final, lease: null, expiresAt: run.now + options.runRecordTtlMs } }, outbox });
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
      // The handle went before the conversation could start: the run never started (SPEC.md's table);
      // one resumed after a decision had started.
      if (outcome.type === 'handle-expired') return failed(RUN_HANDLE_EXPIRED, now, run.status === 'Running' && run.parked !== undefined);
      // Parked while a stop arrived: the stop wins.
      if (outcome.type === 'parked') return failed(ending.stopped?.cause === 'client-too-slow' ? RUN_STREAM_CLIENT_TOO_SLOW : RUN_CANCELLED);
      if (run.status !== 'Running') return failed(RUN_UNHANDLED_EXCEPTION);
      return { final: succeedRun(run, outcome.result, outcome.usage, now), frame: { type: 'RUN_FINISHED', threadId: run.handle, runId: run.jobId } };
    }
    case 'stopped':
      // A cancel (or, on a storage nobody else shares, the host stopping) ends it as cancelled; a
      // stream client that stopped reading says so.
      return failed(ending.stopped.cause === 'client-too-slow' ? RUN_STREAM_CLIENT_TOO_SLOW : RUN_CANCELLED);
    case 'crashed':
      return failed(RUN_UNHANDLED_EXCEPTION);
    case 'abandoned':
      if (run.status === 'Queued') return failed(RUN_RESERVATION_EXPIRED, Math.min(now, run.reservationExpiresAt ?? now));
      return failed(RUN_HOST_STOPPED);
  }
}

/** A run a decision made Queued again (stored Queued, Running to its caller, with its verdict). */
export function isResuming(state: string | null, run: BundleRunRecord): boolean {
  return state === 'Queued' && run.status === 'Running' && run.parked?.verdict !== undefined;
}
