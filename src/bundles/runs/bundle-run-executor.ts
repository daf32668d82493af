// Executes one claimed bundle run on this instance, whoever drives it (the lane or a stream): RUN_STARTED;
// a lease on the handle's staged directory (gone → Failed, handle expired); Running; the conversation
// under the envelope captured at start-run; then Succeeded with RUN_FINISHED, or Failed with RUN_ERROR
// (cancelled, host stopping, or an unhandled exception whose detail stays in the log). Every transition
// is guarded by this instance's lease, so a run another instance took over is never written twice.
// Frames go to the run's local log when a stream reads it; the log and every hold are released at the end.
import type { Clock } from '../../platform/clock/index.js';
import { narrowEnvelope } from '../../platform/envelope/index.js';
import { stopCause, type LiveRun, type LocalEventLog } from '../../runs/index.js';
import type { AgentRuntime } from '../agents/agent-runtime.js';
import type { ConversationSession, ConversationStore } from '../conversations/conversation-store.js';
import type { HandleStore } from '../handles/handle-store.js';
import type { BundleFrame } from './bundle-frame.js';
import { cancellationError, RUN_HANDLE_EXPIRED, RUN_UNHANDLED_EXCEPTION, type RunError } from './run-errors.js';
import type { LiveRunRecord } from './run-record.js';
import type { RunStore } from './run-store.js';
import { failRun, startRun, succeedRun } from './run-transitions.js';

export interface RunExecutorOptions {
  readonly clock: Clock;
  readonly runs: RunStore;
  readonly handles: HandleStore;
  readonly conversations: ConversationStore;
  readonly runtime: AgentRuntime;
  /** The frame log of a run a stream reads, by job id (background runs keep none). */
  readonly frameLog: (jobId: string) => LocalEventLog<BundleFrame> | undefined;
  readonly log: { error(details: object, message: string): void; info(details: object, message: string): void };
}

export class RunExecutor {
  readonly #o: RunExecutorOptions;

  constructor(options: RunExecutorOptions) {
    this.#o = options;
  }

  /** Runs to a terminal state (or stops writing once another instance owns the run); never rejects. */
  async execute(live: LiveRun): Promise<void> {
    const frames = this.#o.frameLog(live.key.id);
    const emit = frames === undefined ? () => undefined : (frame: BundleFrame) => void frames.append(frame);
    try {
      const stored = await this.#o.runs.stored(live.key);
      if (stored === undefined || stored.data.status !== 'Queued') {
        emit({ type: 'RUN_ERROR', message: RUN_UNHANDLED_EXCEPTION });
        return;
      }
      await this.#execute(stored.data, live, emit);
    } catch (error) {
      this.#o.log.error({ err: error, jobId: live.key.id }, 'bundle run bookkeeping failed');
    } finally {
      frames?.close();
    }
  }

  async #execute(record: LiveRunRecord, live: LiveRun, emit: (frame: BundleFrame) => void): Promise<void> {
    const { signal } = live;
    let current: LiveRunRecord = record;
    emit({ type: 'RUN_STARTED', threadId: record.handle, runId: record.jobId });
    const owner = { ownerId: record.ownerId };
    let leased: Awaited<ReturnType<HandleStore['lease']>> = null;
    let conversation: ConversationSession | undefined;
    try {
      if (record.status !== 'Queued') throw new Error(`run ${record.jobId} executed twice`);
      leased = await this.#o.handles.lease(owner, record.handle);
      if (leased === null) return await this.#fail(current, live, RUN_HANDLE_EXPIRED, emit);
      signal.throwIfAborted();
      const running = startRun(record, this.#o.clock.now());
      if (!(await this.#o.runs.transition(running, { from: ['Queued'], holder: live.holder }, this.#o.clock.now()))) return;
      current = running;
      const { input } = running;
      conversation =
        input.conversationId === null ? this.#o.conversations.ephemeral() : await this.#o.conversations.open(owner, input.conversationId, signal);
      const outcome = await this.#o.runtime.converse({
        ownerId: record.ownerId,
        envelope: narrowEnvelope(input.envelope, leased.handle.manifest.allowedTools ?? undefined),
        systemPrompt: leased.handle.systemPrompt,
        history: conversation.history,
        userMessages: input.userMessages,
        maxTurns: input.maxTurns,
        tokenBudget: conversation.remainingTokens,
        depth: 0,
        signal,
        emit,
      });
      const usage = outcome.usage;
      await conversation.commit(outcome.newMessages, usage.inputTokens + usage.outputTokens);
      const { newMessages: _messages, usage: _usage, ...result } = outcome;
      const now = this.#o.clock.now();
      if (await this.#o.runs.transition(succeedRun(running, result, usage, now), { from: ['Running'], holder: live.holder }, now)) {
        this.#o.log.info({ jobId: record.jobId, status: 'Succeeded' }, 'bundle run ended');
        emit({ type: 'RUN_FINISHED', threadId: record.handle, runId: record.jobId });
      }
    } catch (error) {
      const cause = stopCause(signal);
      if (cause === 'lease-lost') return;
      if (cause !== null) return await this.#fail(current, live, cancellationError(signal), emit);
      this.#o.log.error({ err: error, jobId: record.jobId }, 'bundle run failed with an unhandled exception');
      await this.#fail(current, live, RUN_UNHANDLED_EXCEPTION, emit);
    } finally {
      conversation?.release();
      leased?.lease.release();
    }
  }

  async #fail(run: LiveRunRecord, live: LiveRun, error: RunError, emit: (frame: BundleFrame) => void): Promise<void> {
    const now = this.#o.clock.now();
    if (await this.#o.runs.transition(failRun(run, error, now), { from: [run.status], holder: live.holder }, now)) {
      this.#o.log.info({ jobId: run.jobId, status: 'Failed' }, 'bundle run ended');
    }
    emit({ type: 'RUN_ERROR', message: error });
  }
}
