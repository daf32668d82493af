// A bundle run as the run store keeps it: a closed union on `status` (SPEC.md's run state table), so a
// result exists only on Succeeded and an error only on Failed. The execution input (seed messages, the
// envelope captured at start-run) is carried while the run is live and dropped once it ends; what a
// finished run keeps of it is the user messages its turns received, redacted as conversation history
// is, beside the bundle's AGENT.md id: what an eval case made from the run needs (DESIGN §19). The
// poll projection reads none of them.
import type { ConversationCheckpoint } from '../../agent/index.js';
import type { ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { ApprovalVerdict } from '../../tools/index.js';
import type { RunError } from './run-errors.js';

export type RunMode = 'background' | 'stream';

/** The surface that started a run: absent for the bundle routes, `a2a` for DESIGN §20's A2A endpoint. */
export type RunChannel = 'a2a';

export interface RunInput {
  readonly userMessages: readonly string[];
  readonly maxTurns: number;
  readonly conversationId: string | null;
  /** Resolved from the credential that STARTED the run, at start-run (SPEC.md rule 1). */
  readonly envelope: ResolvedEnvelope;
  /** The starter's name or preferred_username claim (approvals say who asked); absent on older runs. */
  readonly requestedBy?: string | null;
}

/** The tool call a parked run waits on, as its poll lists it (DESIGN.md §13 `pendingApprovals`). */
export interface WaitingCall {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly operation: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
}

/**
 * A run stopped for a person's decision: where its conversation goes on from, what its sub-agents had
 * spent, the call it waits on, and — once decided — the verdict the call is made again with.
 */
export interface ParkedConversation {
  readonly checkpoint: ConversationCheckpoint;
  readonly delegatedUsage: RunUsage;
  readonly waiting: WaitingCall;
  readonly verdict?: ApprovalVerdict;
}

export interface RunOutcome {
  readonly conversationSucceeded: boolean;
  readonly finalResponse: string;
  readonly turnCount: number;
  readonly totalToolInvocations: number;
  readonly budgetExhausted: boolean;
  readonly conversationError: string | null;
}

export interface RunUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Those tokens at ChatModel:Pricing when the run finished (DESIGN §16); absent on runs stored before. */
  readonly costUsd?: number;
}

interface RunBase {
  readonly jobId: string;
  readonly handle: string;
  readonly ownerId: string;
  readonly mode: RunMode;
  readonly createdAt: number;
  /** Set for runs started over A2A (DESIGN §20); absent otherwise, so older records read the same. */
  readonly channel?: RunChannel;
  /** An A2A run's conversation (its task's contextId), kept once the run ends and its input is dropped. */
  readonly contextId?: string;
  /** The bundle's AGENT.md id when the run was started (absent on runs stored before it was kept). */
  readonly agent?: string;
}

/** What a finished run keeps of its input (absent on runs stored before it was kept). */
interface KeptInput {
  /** The user messages its turns received, redacted as conversation history is. */
  readonly userMessages?: readonly string[];
}

export interface QueuedRun extends RunBase {
  readonly status: 'Queued';
  readonly input: RunInput;
  /** Stream mode: when an unopened reservation is reclaimed; null for background runs. */
  readonly reservationExpiresAt: number | null;
}

export interface RunningRun extends RunBase {
  readonly status: 'Running';
  readonly input: RunInput;
  readonly startedAt: number;
  /** Set while the run waits for a person (stored state Parked) and when it resumes from that. */
  readonly parked?: ParkedConversation;
}

export interface SucceededRun extends RunBase, KeptInput {
  readonly status: 'Succeeded';
  readonly startedAt: number;
  readonly completedAt: number;
  readonly result: RunOutcome;
  readonly usage: RunUsage;
}

export interface FailedRun extends RunBase, KeptInput {
  readonly status: 'Failed';
  /** Null when the run failed before it started (expired handle, reclaimed reservation). */
  readonly startedAt: number | null;
  readonly completedAt: number;
  readonly error: RunError;
}

export type BundleRunRecord = QueuedRun | RunningRun | SucceededRun | FailedRun;
export type LiveRunRecord = QueuedRun | RunningRun;
export type TerminalRunRecord = SucceededRun | FailedRun;

export function isTerminal(run: BundleRunRecord): run is TerminalRunRecord {
  return run.status === 'Succeeded' || run.status === 'Failed';
}
