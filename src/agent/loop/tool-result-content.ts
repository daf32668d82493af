// The fixed, caller-safe texts a tool call can end with. The stream frame and the model see the same
// text, except for a refusal the model can fix: the model is also told the host-written reason, the
// frame stays generic. Exception text and tool error detail never reach either (the caller logs them).

/** Content of a refused call (a tool not granted, or the policy said no). */
export const TOOL_DENIED_CONTENT = 'Tool call denied by policy.';

/** Content of a call a person rejected, or whose approval expired undecided (DESIGN.md §13). */
export const TOOL_REJECTED_CONTENT = 'Tool call rejected by an approver.';

/** Content of a call whose output was larger than the model is handed (never cut: replaced, and said so). */
export const toolResultTooLargeContent = (maxBytes: number): string =>
  `The tool call succeeded, but its result was larger than the ${maxBytes} bytes passed to the model, so it was not passed on.`;

/** Content of a call that ran and failed, or that threw. */
export const TOOL_FAILED_CONTENT = 'The tool call failed.';

/** Contents of a call whose arguments could not be used; nothing was executed. */
export const INVALID_ARGUMENTS_CONTENT = {
  notJson: 'The tool call failed: its arguments were not valid JSON.',
  notObject: 'The tool call failed: its arguments must be a JSON object with "operation" and "parameters".',
  parametersNotObject: 'The tool call failed: "parameters" must be a JSON object.',
  operation: (operations: readonly string[]): string =>
    `The tool call failed: "operation" must be one of: ${operations.join(', ')}.`,
} as const;

/** What the model is told about a refused call: the generic failure plus the host-written reason. */
export function refusedContent(reason: string): string {
  return `${TOOL_FAILED_CONTENT.slice(0, -1)}: ${reason}. Correct the call and try again.`;
}
