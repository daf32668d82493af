// Where a conversation stopped for a person's decision on one of its tool calls (DESIGN.md §13), as
// plain data a run record can keep: the messages so far (redacted, as stored: a resumed conversation
// sends the model the redacted transcript, which is what it would replay from history anyway), the
// counters, and the model step whose calls were being made — which of them waits, and how many model
// calls the turn had used. Nothing live goes in.
import type { ChatMessage } from '../../models/index.js';
import type { PreparedToolCall } from './prepare-tool-calls.js';

export interface ConversationCheckpoint {
  readonly messages: readonly ChatMessage[];
  readonly usedToolCallIds: readonly string[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly toolInvocations: number;
  readonly turnCount: number;
  readonly turnText: string;
  readonly step: {
    /** Index of the user message whose turn stopped. */
    readonly turnIndex: number;
    /** Model calls the turn had made, the one that asked for these calls included. */
    readonly modelCalls: number;
    readonly calls: readonly PreparedToolCall[];
    /** Index in `calls` of the call that waits; those before it ran. Its start, args and end frames were sent. */
    readonly waiting: number;
    readonly parentMessageId: string | undefined;
    readonly approvalId: string;
  };
}
