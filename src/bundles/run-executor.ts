// Executes one claimed run, whoever drives it (the dispatcher or a stream): RUN_STARTED; a lease on the
// handle's staging directory (gone → Failed, handle expired); Running; the conversation under the
// envelope captured at start-run; then Succeeded with RUN_FINISHED, or Failed with RUN_ERROR
// (cancelled, or an unhandled exception whose detail stays in the log). Every frame goes to the run's
// log; the slot, lease, conversation and log are released whatever happens.
import type { Clock } from '../platform/clock/index.js';
import { narrowEnvelope } from '../platform/envelope/index.js';
import type { ActiveRun, ActiveRuns } from './active-runs.js';
import type { BundleFrame } from './bundle-frame.js';
import type { AgentRuntime } from './agent-runtime.js';
import type { ConversationSession, ConversationStore } from './conversation-store.js';
import type { HandleStore } from './handle-store.js';
import { cancellationError, RUN_HANDLE_EXPIRED, RUN_UNHANDLED_EXCEPTION, type RunError } from './run-errors.js';
import type { BundleRunRecord, LiveRunRecord } from './run-record.js';
import type { RunStore } from './run-store.js';
import { failRun, startRun, succeedRun } from './run-transitions.js';

export interface RunExecutorOptions {
  readonly clock: Clock;
  readonly runs: RunStore;
  readonly active: ActiveRuns;
  readonly handles: HandleStore;
  readonly conversations: ConversationStore;
  readonly runtime: AgentRuntime;
  readonly log: { error(details: object, message: string): void; info(details: object, message: string): void };
}

export class RunExecutor {
  readonly #o: RunExecutorOptions;
  readonly #executing = new Set<Promise<void>>();

  constructor(options: RunExecutorOptions) {
    this.#o = options;
  }

  /** Runs to a terminal state; never rejects. */
  execute(run: ActiveRun): Promise<void> {
    const execution = this.#execute(run).finally(() => this.#executing.delete(execution));
    this.#executing.add(execution);
    return execution;
  }

  /** Resolves once every execution started so far has ended. */
  async idle(): Promise<void> {
    while (this.#executing.size > 0) await Promise.all([...this.#executing]);
  }

  async #execute(run: ActiveRun): Promise<void> {
    const { record } = run;
    const { signal } = run.controller;
    // Only a stream reads the frames; a background run keeps none.
    const emit = record.mode === 'stream' ? (frame: BundleFrame) => void run.log.append(frame) : () => undefined;
    emit({ type: 'RUN_STARTED', threadId: record.handle, runId: record.jobId });
    const owner = { ownerId: record.ownerId };
    let leased: Awaited<ReturnType<HandleStore['lease']>> = null;
    let conversation: ConversationSession | undefined;
    try {
      if (record.status !== 'Queued') throw new Error(`run ${record.jobId} executed twice`);
      leased = await this.#o.handles.lease(owner, record.handle);
      if (leased === null) return await this.#fail(run, RUN_HANDLE_EXPIRED, emit);
      signal.throwIfAborted();
      const running = await this.#transition(run, startRun(record, this.#o.clock.now()));
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
      await this.#finish(succeedRun(running, result, usage, this.#o.clock.now()));
      emit({ type: 'RUN_FINISHED', threadId: record.handle, runId: record.jobId });
    } catch (error) {
      if (signal.aborted) return await this.#fail(run, cancellationError(signal), emit);
      this.#o.log.error({ err: error, jobId: record.jobId }, 'bundle run failed with an unhandled exception');
      await this.#fail(run, RUN_UNHANDLED_EXCEPTION, emit);
    } finally {
      conversation?.release();
      leased?.lease.release();
      this.#o.active.remove(run);
    }
  }

  async #transition<R extends LiveRunRecord>(run: ActiveRun, next: R): Promise<R> {
    run.record = next;
    await this.#o.runs.save(next);
    return next;
  }

  async #finish(next: BundleRunRecord): Promise<void> {
    await this.#o.runs.save(next);
    this.#o.log.info({ jobId: next.jobId, status: next.status }, 'bundle run ended');
  }

  async #fail(run: ActiveRun, error: RunError, emit: (frame: BundleFrame) => void): Promise<void> {
    await this.#finish(failRun(run.record, error, this.#o.clock.now()));
    emit({ type: 'RUN_ERROR', message: error });
  }
}
