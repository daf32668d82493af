// What a conversation run reports back: SPEC.md's BundleRunOutcomeResponse fields plus usage and the
// messages to append to the stored conversation (redacted).
import type { ChatMessage } from '../../models/index.js';
import type { ConversationCheckpoint } from './conversation-checkpoint.js';

export interface ConversationOutcome {
  /** False after a chat-model failure or the per-turn model-call limit; true on budget exhaustion. */
  readonly conversationSucceeded: boolean;
  /** The last non-empty assistant text of the last turn begun, redacted; "" when it had none. */
  readonly finalResponse: string;
  /** Turns begun (a turn begins when its first model call is about to be made). */
  readonly turnCount: number;
  /** Every tool call the model asked for: ran, failed, denied or refused for bad arguments. */
  readonly totalToolInvocations: number;
  /** True when a model call was needed but the lifetime token budget was already spent. */
  readonly budgetExhausted: boolean;
  /** Caller-safe reason when conversationSucceeded is false, else null. */
  readonly conversationError: string | null;
  /** Summed over every completed model call of this run. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /**
   * In order: each begun turn's user message, assistant messages (with their tool calls), tool
   * results. Every assistant tool call is followed by its result. Redacted.
   */
  readonly newMessages: ChatMessage[];
  /** Set when the conversation stopped for a person's decision on a tool call: where to go on from. */
  readonly parked?: ConversationCheckpoint;
}
