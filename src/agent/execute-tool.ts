// How the loop runs a tool call: through a function the caller supplies, which wraps the governor and
// parameter validation. Outcomes are data; a throw is a programming error and rejects the whole
// conversation (the caller's unhandled-exception path), except after the signal aborted.

export type ToolExecution =
  | { readonly status: 'denied' }
  /**
   * Refused before running, for a reason the model can fix (an undeclared operation, parameters that
   * break the schema). `reason` is host-written, never tool or exception text: the model is told it,
   * the stream frame carries only the generic failure.
   */
  | { readonly status: 'refused'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'succeeded'; readonly output: string };

export interface ToolCallRequest {
  readonly toolCallId: string;
  /** The catalog name of a tool in the effective set. */
  readonly name: string;
  /** One of the tool's declared operations. */
  readonly operation: string;
  /** Parsed from the model's arguments, not yet validated against the operation's schema. */
  readonly parameters: Record<string, unknown>;
}

export type ExecuteTool = (call: ToolCallRequest, signal: AbortSignal) => Promise<ToolExecution>;
