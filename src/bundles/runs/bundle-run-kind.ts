// Bundle runs as the run engine knows them: records in the `bundle-run` collection, live while Queued
// or Running, dispatched MaxConcurrentDispatchedBundleRuns at a time on each instance. A run begins
// Running. A run whose lease lapsed is never replayed: a background run that never started runs
// here; one that was Running on a dead (or stopped) instance ends Failed with DESIGN §11's "The host
// executing this run stopped." (its tools may have had effects); an unopened stream reservation ends
// Failed as reclaimed. Settle writes the end and its terminal frame (RUN_FINISHED or RUN_ERROR) in one
// commit, so a stream following the journal ends exactly once. A run that waits for a person's
// decision (DESIGN.md §13) is parked by the run engine: this kind says what is stored — Parked, still
// Running to its caller, the conversation's checkpoint — with a RUN_FINISHED frame carrying AG-UI's
// interrupt outcome, which ends a stream following it. Once decided (on any instance), the engine
// makes it Queued again with a lease and the verdict this kind puts in its record, and it begins like
// any queued run; cancelled while parked, it ends at once and its approval is withdrawn.
import { decisionOf, type Approvals } from '../../approvals/index.js';
import { QUEUED, type RunDecision, type RunEnding, type RunKind, type SettlingRun } from '../../runs/index.js';
import type { ApprovalVerdict } from '../../tools/index.js';
import type { BundleFrame } from './bundle-frame.js';
import type { BundleOutcome, BundleRunExecutor } from './bundle-run-executor.js';
import { RUN_CANCELLED, RUN_HANDLE_EXPIRED, RUN_HOST_STOPPED, RUN_RESERVATION_EXPIRED, RUN_STREAM_CLIENT_TOO_SLOW, RUN_UNHANDLED_EXCEPTION, type RunError } from './run-errors.js';
import { isoInstant } from '../../platform/clock/index.js';
import { isTerminal, type BundleRunRecord, type LiveRunRecord, type ParkedConversation, type RunningRun, type TerminalRunRecord } from './run-record.js';
import { LIVE_STATES, PARKED, RUN_COLLECTION } from './bundle-run-store.js';
import { failRun, startRun, succeedRun } from './run-transitions.js';
import { bundleRunEvent } from './bundle-run-event.js';
import type { EventOutbox } from '../../platform/outbox/index.js';

export function bundleRunKind(options: {
  readonly executor: BundleRunExecutor;
  readonly maxConcurrent: number;
  readonly runRecordTtlMs: number;
  readonly log: { info(details: object, message: string): void };
  /** Where a parked run's approval is read (a decision before the park) and withdrawn (a cancel). */
  readonly approvals: Approvals;
  /** Where bundle.run.awaiting_approval and bundle.run.finished are written with the change. */
  readonly events: EventOutbox;
}): RunKind<BundleRunRecord, BundleOutcome, ParkedConversation> {
  const { approvals } = options;
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    waiting: {
      state: PARKED,
      // Woken: Queued in storage until it begins again here, Running to its caller all along.
      wokenState: QUEUED,
      park: async (run, waits) => {
        const live = run.record.data as RunningRun;
        const waiting: RunningRun = { ...live, parked: waits.checkpoint };
        const { waiting: call } = waits.checkpoint;
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
        return { data: waiting, events: [frame], outbox };
      },
      resume: (record, decision) => {
        const run = record.data;
        if (run.status !== 'Running' || run.parked?.waiting.approvalId !== decision.approvalId) return null;
        return { ...run, parked: { ...run.parked, verdict: verdictOf(decision) } };
      },
      decided: async (record) => {
        const waiting = record.data.status === 'Running' ? record.data.parked?.waiting : undefined;
        if (waiting === undefined) return undefined;
        const approval = await approvals.store.get({ ownerId: record.ownerId }, waiting.approvalId);
        return approval === undefined ? undefined : decisionOf(approval);
      },
      expire: (key, approvalId) => approvals.expireOverdue(key.ownerId, approvalId),
    },
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
      // A parked run ended another way (cancelled): its approval is withdrawn.
      if (live.status === 'Running' && live.parked !== undefined && live.parked.verdict === undefined) await withdraw(approvals, live);
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
    return { final: started ? final : { ...final, startedAt: null, userMessages: [] }, frame: { type: 'RUN_ERROR', message: error } };
  };
  switch (ending.type) {
    case 'completed': {
      const outcome = ending.outcome;
      // The handle went before the conversation could start: the run never started (SPEC.md's table);
      // one resumed after a decision had started.
      if (outcome.type === 'handle-expired') return failed(RUN_HANDLE_EXPIRED, now, run.status === 'Running' && run.parked !== undefined);
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

/** The verdict a decision gives the waiting call, as the run's record keeps it. */
function verdictOf(decision: RunDecision): ApprovalVerdict {
  return decision.outcome === 'approved' ? { approved: true, by: decision.by ?? 'an approver' } : { approved: false, expired: decision.outcome === 'expired' };
}

async function withdraw(approvals: Approvals, run: RunningRun): Promise<void> {
  const waiting = run.parked?.waiting;
  if (waiting === undefined) return;
  const approval = await approvals.store.get({ ownerId: run.ownerId }, waiting.approvalId);
  if (approval?.state === 'Pending') await approvals.withdraw(approval, run.ownerId);
}

/** A run a decision made Queued again (stored Queued, Running to its caller, with its verdict). */
export function isResuming(state: string | null, run: BundleRunRecord): boolean {
  return state === 'Queued' && run.status === 'Running' && run.parked?.verdict !== undefined;
}
