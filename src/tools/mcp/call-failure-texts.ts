// The caller-safe texts of an MCP call that failed outside the tool. Apart from the classification
// (call-failure-message.ts), so code that names them does not load the MCP SDK.
export const MCP_CALL_FAILED = 'MCP server call failed.';
export const MCP_CALL_TIMED_OUT = 'MCP server call timed out.';
export const MCP_CALL_CANCELLED = 'MCP server call was cancelled.';
