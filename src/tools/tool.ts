// The contract every tool implements, built in or from an MCP server. Tools report their own
// failures as data (`ok: false`), never by throwing; a throw is a programming error and the caller
// turns it into a generic failure. Tools never see HTTP or tokens; only a tool that runs an agent
// reads the calling conversation's envelope, to run it under the same one.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../platform/envelope/index.js';
import type { SpendAccount } from '../platform/spend/index.js';

export type RiskTier = 'Trivial' | 'Low' | 'Medium' | 'High' | 'Critical';
export const riskTiers: readonly RiskTier[] = ['Trivial', 'Low', 'Medium', 'High', 'Critical'];

/** A JSON Schema object (draft 2020-12 subset that ajv compiles). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ToolOperation {
  readonly name: string;
  readonly description: string;
  /** Schema of the `parameters` object; built-ins set `additionalProperties: false`. */
  readonly parameters: JsonSchema;
}

export interface ToolDescriptor {
  /** Lower snake case for built-ins; `mcp__<server>__<tool>` for MCP tools (server spelling kept). */
  readonly name: string;
  readonly description: string;
  readonly operations: readonly ToolOperation[];
  readonly riskTier: RiskTier;
  readonly isReadOnly: boolean;
  readonly isConcurrencySafe: boolean;
  readonly isDirectlyInvocable: boolean;
  /** True when the tool can send data off the host (network); feeds the data-classification check. */
  readonly reachesNetwork: boolean;
}

export interface ToolCallContext {
  /** Claim-family-prefixed owner id of the caller (per-owner state such as `memory`). */
  readonly ownerId: string;
  /** Aborted on deadline, cancellation or shutdown; tools must stop promptly. */
  readonly signal: AbortSignal;
  /** The conversation that made the call, when an agent did (`delegate_task` runs its sub-agent under it). */
  readonly conversation?: ConversationScope | undefined;
}

/** What a tool call made by an agent carries about the conversation that made it. */
export interface ConversationScope {
  /** The envelope the conversation runs under (a sub-agent runs under the same one). */
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  /** 0 for a bundle's own agent, 1 for its sub-agent, … */
  readonly depth: number;
  /** Tokens the conversation may still spend (its budget less its own and its sub-agents' usage). */
  remainingTokens(): number;
  /** Adds a sub-agent's usage to the conversation's. */
  addUsage(usage: { readonly inputTokens: number; readonly outputTokens: number }): void;
  /** Whose spend the conversation's model calls are (a sub-agent's count against the same run). */
  readonly spend?: SpendAccount;
  /** Where its calls are made (a sub-agent's too): a bundle run's, or an eval case's (DESIGN §19). */
  readonly surface?: 'bundle' | 'eval';
}

export type ToolResult =
  | {
      readonly ok: true;
      readonly output: string;
      /**
       * The JSON value `output` is the text of, frozen all the way down: set only by a tool that wrote
       * the text from exactly this value, so a workflow step keeps it instead of parsing the text again.
       */
      readonly value?: unknown;
    }
  | {
      readonly ok: false;
      readonly error: string;
      /** Refused before it ran: the tool has too much work waiting (direct invocation answers 429). */
      readonly busy?: true;
    };

export interface Tool {
  readonly descriptor: ToolDescriptor;
  /** `parameters` were already validated against the operation's schema by the caller. */
  invoke(operation: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult>;
  /**
   * The same answer as `invoke`, at once: only a tool whose work is synchronous has it (the governed
   * call then answers without waiting on the tool's promise; a workflow step may be one such call).
   */
  invokeNow?(operation: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): ToolResult;
  /** Release resources (indexes, connections, timers). */
  close?(): Promise<void>;
}

export function toolSuccess(output: unknown): ToolResult {
  return { ok: true, output: typeof output === 'string' ? output : JSON.stringify(output) };
}

export function toolFailure(error: string): ToolResult {
  return { ok: false, error };
}

/** A call refused at once, nothing run, because the tool's bounded waiting line is full. */
export function toolBusy(error: string): ToolResult {
  return { ok: false, error, busy: true };
}
