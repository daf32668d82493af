// Everything one conversation run needs, passed in: the loop reads no config, clock, registry or
// request. The caller owns the run (its frames, its state, its history store).
import type { ChatMessage, ChatModel } from '../../models/index.js';
import type { IdGenerator } from '../../platform/clock/index.js';
import type { AgentEvent } from './agent-event.js';
import type { AgentTool } from './agent-tool.js';
import type { ExecuteTool } from './execute-tool.js';
import type { ConversationCheckpoint } from './conversation-checkpoint.js';

export interface ConversationLimits {
  /** Model round-trips inside one turn (the tool-loop bound); ≥ 1. */
  readonly maxModelCallsPerTurn: number;
  /** Tokens (input + output) this conversation may still spend; ≤ 0 means nothing may run. */
  readonly lifetimeTokenBudget: number;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** UTF-8 size above which TOOL_CALL_ARGS.delta / TOOL_CALL_RESULT.content are withheld; ≥ 0. */
  readonly frameCeilingBytes: number;
  /** UTF-8 size above which a tool's output is not handed to the model (a notice is, instead); ≥ 1. */
  readonly maxToolResultBytes: number;
}

export interface ConversationInput {
  readonly model: ChatModel;
  /** Sent first when non-empty. */
  readonly systemPrompt: string;
  /** Prior messages, already windowed to MaxHistoryMessages by the caller; sent as they are. */
  readonly history: readonly ChatMessage[];
  /** One turn each, answered in order; those beyond `maxTurns` are not answered. */
  readonly userMessages: readonly string[];
  /** ≥ 1. */
  readonly maxTurns: number;
  /** The effective tool set; empty means the model is offered no tools. */
  readonly tools: readonly AgentTool[];
  readonly executeTool: ExecuteTool;
  readonly limits: ConversationLimits;
  /** Mints stream message ids and, when the provider's are missing or reused, tool-call ids. */
  readonly ids: IdGenerator;
  /** Aborting rejects runConversation and aborts the model request and the running tool call. */
  readonly signal: AbortSignal;
  /** Receives frames synchronously, in order. */
  readonly emit: (event: AgentEvent) => void;
  /**
   * Goes on from where a conversation stopped for a person's decision (its outcome's `parked`): the
   * same input otherwise (the same user messages), and the decided call is made again first.
   */
  readonly resume?: ConversationCheckpoint;
}
