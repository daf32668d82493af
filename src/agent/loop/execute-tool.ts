// How the loop runs a tool call: through a function the caller supplies, which makes it one governed
// call. Every call the model asks for goes there — a tool it was not offered, or arguments that do
// not read, included — so every one is decided (and audited) in the same place. Outcomes are data; a
// throw is a programming error and rejects the whole conversation (the caller's unhandled-exception
// path), except after the signal aborted.

export type ToolExecution =
  /** `rejected`: a person rejected the call, or its approval expired undecided (the model is told so). */
  | { readonly status: 'denied'; readonly rejected?: boolean }
  /**
   * Refused before running, for a reason the model can fix (an undeclared operation, parameters that
   * break the schema). `reason` is host-written, never tool or exception text: the model is told it,
   * the stream frame carries only the generic failure. `operations`: the operation itself was not
   * declared, and these are.
   */
  | { readonly status: 'refused'; readonly reason: string; readonly operations?: readonly string[] }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'succeeded'; readonly output: string }
  /**
   * A person must approve the call first (DESIGN.md §13): nothing ran; the conversation stops here and
   * is given back as a checkpoint, to be resumed with the decision (`resume`).
   */
  | { readonly status: 'awaiting-approval'; readonly approvalId: string }
  /**
   * Answered from an eval case's recording (DESIGN §19): nothing ran; the recorded text (redacted and
   * bounded when it was recorded) is what the model and the frame are told.
   */
  | { readonly status: 'replayed'; readonly content: string };

export interface ToolCallRequest {
  readonly toolCallId: string;
  /** The tool's name as the model asked for it (offered or not). */
  readonly name: string;
  /** As the model gave it ('' when its arguments name none). */
  readonly operation: string;
  /** As the model gave them, not yet validated against the operation's schema. */
  readonly parameters: Record<string, unknown>;
}

export type ExecuteTool = (call: ToolCallRequest, signal: AbortSignal) => Promise<ToolExecution>;
