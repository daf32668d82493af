// The caller-safe text for an MCP call that failed outside the tool (transport, protocol, deadline or
// cancellation). Details never reach the model; the connection logs them.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { MCP_CALL_CANCELLED, MCP_CALL_FAILED, MCP_CALL_TIMED_OUT } from './call-failure-texts.js';

export { MCP_CALL_CANCELLED, MCP_CALL_FAILED, MCP_CALL_TIMED_OUT };

export function callFailureMessage(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return MCP_CALL_CANCELLED;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return MCP_CALL_TIMED_OUT;
  return MCP_CALL_FAILED;
}
