// Executes one begun bundle run on this instance, whoever drives it (the lane or a stream): RUN_STARTED;
// a lease on the handle's staged directory (gone → the handle expired before the run started); the
// conversation under the envelope captured at start-run, every frame appended to the run's journal
// (so a stream on any instance follows it); the conversation's new messages written back while the run
// is still this instance's. A tool call a person must approve (DESIGN.md §13) opens an approval through
// the approval contract, and the run waits: it returns RunWaits with where its conversation stopped,
// and the run engine parks it (no lease, no slot, nothing in memory; the run kind says what is
// stored). Once decided, the engine resumes it — on whichever instance the decision reached — and it
// is executed again from that checkpoint, the waiting call made again with the verdict first. Returns
// what came of it; how the run ends is written by the run kind's settle (bundle-run-kind.ts), and a
// cancel, a crash or a stopping host reaches it through the engine.
import type { Approvals, BundleToolCallApproval } from '../../approvals/index.js';
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import { narrowEnvelope, NO_BUDGET } from '../../platform/envelope/index.js';
import { RunWaits, type LiveRun } from '../../runs/index.js';
import type { AgentRuntime, ConversationOutcome } from '../../agent/index.js';
import { approvalToolCall, type Supervisor } from '../../tools/index.js';
import type { ConversationSession, ConversationStore } from '../conversations/conversation-store.js';
import type { HandleStore } from '../handles/handle-store.js';
import type { BundleRunRecord, ParkedConversation, RunOutcome, RunUsage, RunningRun, WaitingCall } from './run-record.js';
import { costUsd, type Pricing } from '../../platform/spend/index.js';

/** What executing a bundle run came to. */
export type BundleOutcome = { readonly type: 'conversed'; readonly result: RunOutcome; readonly usage: RunUsage } | { readonly type: 'handle-expired' };

export interface BundleRunExecutorOptions {
  readonly handles: HandleStore;
  readonly conversations: ConversationStore;
  readonly runtime: AgentRuntime;
  readonly approvals: Approvals;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  /** Argument text above this is withheld from an approval (the stream's frame ceiling). */
  readonly frameCeilingBytes: number;
  /** ChatModel:Pricing: the run's usage is priced when it finishes. */
  readonly pricing: Pricing;
}

export class BundleRunExecutor {
  readonly #options: BundleRunExecutorOptions;

  constructor(options: BundleRunExecutorOptions) {
    this.#options = options;
  }

  /** What came of the run, or — stopped for a person's decision on `checkpoint.waiting`, its approval stored — that it waits. */
  async execute(live: LiveRun<BundleRunRecord>): Promise<BundleOutcome | RunWaits<ParkedConversation>> {
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
      const resumed = run.parked;
      const supervision = this.#supervision(live, run);
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
        supervisorFor: supervision.supervisorFor,
        requireApproval: leased.handle.manifest.requireApproval,
        spend: { ownerId: run.ownerId, family: 'bundle', runId: run.jobId, budget: input.envelope.budget ?? NO_BUDGET },
        bundleId: leased.handle.manifest.id,
        ...(resumed === undefined ? {} : { resume: { checkpoint: resumed.checkpoint, delegatedUsage: resumed.delegatedUsage } }),
      });
      const waiting = supervision.waiting();
      if (outcome.parked !== undefined && waiting !== undefined) return new RunWaits(waiting.approvalId, parkedOf(outcome, waiting), waiting.expiresAt);
      const { newMessages, usage, parked: _parked, ...result } = outcome;
      const session = conversation;
      await live.whileOwned(() => session.commit(newMessages, usage.inputTokens + usage.outputTokens));
      return { type: 'conversed', result, usage: { ...usage, costUsd: costUsd({ input: usage.inputTokens, output: usage.outputTokens }, this.#options.pricing) } };
    } finally {
      conversation?.release();
      leased.lease.release();
    }
  }

  /**
   * The run's supervisor: the call it resumed for is answered with its stored verdict; any other call
   * that needs a person opens an approval (while the run is still this instance's) and parks the run.
   */
  #supervision(live: LiveRun<BundleRunRecord>, run: RunningRun): { supervisorFor: (toolCallId: string) => Supervisor; waiting(): WaitingCall | undefined } {
    const { approvals, ids, clock, frameCeilingBytes } = this.#options;
    let waiting: WaitingCall | undefined;
    const resumed = run.parked;
    return {
      waiting: () => waiting,
      supervisorFor: (toolCallId) => ({
        ask: async (ask) => {
          if (resumed?.verdict !== undefined && resumed.waiting.toolCallId === toolCallId) return resumed.verdict;
          const now = clock.now();
          const name = ask.tool.descriptor.name;
          const approval: BundleToolCallApproval = {
            approvalId: ids.opaque(),
            jobId: run.jobId,
            stepId: toolCallId,
            message: `The agent asks to call ${name} (${ask.operation}).`,
            createdAt: now,
            deadline: approvals.deadline(now, undefined),
            state: 'Pending',
            decidedBy: null,
            decidedAt: null,
            decision: null,
            comment: null,
            kind: 'ToolCall',
            runKind: 'bundle',
            handle: run.handle,
            ...approvalToolCall(ask, frameCeilingBytes),
            routedTo: approvals.routing(),
            escalated: false,
            requestedBy: run.input.requestedBy ?? null,
          };
          const opened = await live.whileOwned(() => approvals.request(approval, run.ownerId).then(() => true));
          // Fenced (another instance took the run, or the host is stopping): nothing was stored; stop here.
          if (opened !== true) throw live.signal.reason ?? new Error('the run is no longer this instance’s');
          waiting = { approvalId: approval.approvalId, toolCallId, tool: name, operation: ask.operation, createdAt: now, expiresAt: approval.deadline };
          return { parked: approval.approvalId };
        },
      }),
    };
  }
}

function parkedOf(outcome: ConversationOutcome, waiting: WaitingCall): ParkedConversation {
  const checkpoint = outcome.parked!;
  return {
    checkpoint,
    // The runtime's usage is the loop's own plus its sub-agents'; what is not the loop's is theirs.
    delegatedUsage: {
      inputTokens: outcome.usage.inputTokens - checkpoint.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens - checkpoint.usage.outputTokens,
    },
    waiting,
  };
}
