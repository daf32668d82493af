// Executes one begun bundle run on this instance, whoever drives it (the lane or a stream): RUN_STARTED;
// a lease on the handle's staged directory (gone → the handle expired before the run started); the
// conversation under the envelope captured at start-run, every frame appended to the run's journal
// (so a stream on any instance follows it); the conversation's new messages written back while the run
// is still this instance's. Returns what came of it; how the run ends is written by the run kind's
// settle (bundle-run-kind.ts), and a cancel, a crash or a stopping host reaches it through the engine.
import { narrowEnvelope } from '../../platform/envelope/index.js';
import type { LiveRun } from '../../runs/index.js';
import type { AgentRuntime } from '../../agent/index.js';
import type { ConversationSession, ConversationStore } from '../conversations/conversation-store.js';
import type { HandleStore } from '../handles/handle-store.js';
import type { BundleRunRecord, RunOutcome, RunUsage, RunningRun } from './run-record.js';

/** What executing a bundle run came to. */
export type BundleOutcome =
  | { readonly type: 'conversed'; readonly result: RunOutcome; readonly usage: RunUsage }
  | { readonly type: 'handle-expired' };

export interface BundleRunExecutorOptions {
  readonly handles: HandleStore;
  readonly conversations: ConversationStore;
  readonly runtime: AgentRuntime;
}

export class BundleRunExecutor {
  readonly #options: BundleRunExecutorOptions;

  constructor(options: BundleRunExecutorOptions) {
    this.#options = options;
  }

  async execute(live: LiveRun<BundleRunRecord>): Promise<BundleOutcome> {
    const { handles, conversations, runtime } = this.#options;
    const run = live.record.data as RunningRun;
    live.emit({ type: 'RUN_STARTED', threadId: run.handle, runId: run.jobId });
    const owner = { ownerId: run.ownerId };
    const leased = await handles.lease(owner, run.handle);
    if (leased === null) return { type: 'handle-expired' };
    let conversation: ConversationSession | undefined;
    try {
      const { input } = run;
      conversation = input.conversationId === null ? conversations.ephemeral() : await conversations.open(owner, input.conversationId, live.signal);
      const outcome = await runtime.converse({
        ownerId: run.ownerId,
        envelope: narrowEnvelope(input.envelope, leased.handle.manifest.allowedTools ?? undefined),
        systemPrompt: leased.handle.systemPrompt,
        history: conversation.history,
        userMessages: input.userMessages,
        maxTurns: input.maxTurns,
        tokenBudget: conversation.remainingTokens,
        depth: 0,
        signal: live.signal,
        emit: (frame) => live.emit(frame),
      });
      const { newMessages, usage, ...result } = outcome;
      const session = conversation;
      await live.whileOwned(() => session.commit(newMessages, usage.inputTokens + usage.outputTokens));
      return { type: 'conversed', result, usage };
    } finally {
      conversation?.release();
      leased.lease.release();
    }
  }
}
