// The caller-safe text for an MCP call that failed outside the tool (transport, protocol, deadline or
// cancellation). Details never reach the model; the connection logs them.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

export const MCP_CALL_FAILED = 'MCP server call failed.';
export const MCP_CALL_TIMED_OUT = 'MCP server call timed out.';
export const MCP_CALL_CANCELLED = 'MCP server call was cancelled.';

export function callFailureMessage(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return MCP_CALL_CANCELLED;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return MCP_CALL_TIMED_OUT;
  return MCP_CALL_FAILED;
}
