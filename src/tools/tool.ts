// The contract every tool implements, built in or from an MCP server. Tools report their own
// failures as data (`ok: false`), never by throwing; a throw is a programming error and the caller
// turns it into a generic failure. Tools never see HTTP, tokens or envelopes.

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
}

export type ToolResult =
  | { readonly ok: true; readonly output: string }
  | { readonly ok: false; readonly error: string };

export interface Tool {
  readonly descriptor: ToolDescriptor;
  /** `parameters` were already validated against the operation's schema by the caller. */
  invoke(operation: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult>;
  /** Release resources (indexes, connections, timers). */
  close?(): Promise<void>;
}

export function toolSuccess(output: unknown): ToolResult {
  return { ok: true, output: typeof output === 'string' ? output : JSON.stringify(output) };
}

export function toolFailure(error: string): ToolResult {
  return { ok: false, error };
}
