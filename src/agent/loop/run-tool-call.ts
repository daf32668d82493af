// One tool call, after the model step that asked for it: TOOL_CALL_START, ARGS (complete, redacted,
// withheld above the ceiling) and END back to back, then the call goes to executeTool — every call,
// a tool that was not offered and arguments that do not read included, so each one is decided (and
// audited) where every tool call is — and TOOL_CALL_RESULT carries the same text the model is told
// (an output over maxToolResultBytes is replaced by a notice), except that a refusal's host-written
// reason goes to the model only (the frame keeps the generic failure, SPEC.md). Returns the model's text.
import { redactText } from '../../platform/redaction/index.js';
import type { IdGenerator } from '../../platform/clock/index.js';
import { abortReason as abortError, throwIfAborted, untilAborted } from '../../platform/abort/index.js';
import type { AgentEvent } from './agent-event.js';
import type { AgentTool } from './agent-tool.js';
import type { ExecuteTool, ToolCallRequest, ToolExecution } from './execute-tool.js';
import { toolCallArgsFrame, toolCallResultFrame } from './frame-ceiling.js';
import type { PreparedToolCall } from './prepare-tool-calls.js';
import { readToolArguments } from './read-tool-arguments.js';
import { INVALID_ARGUMENTS_CONTENT, refusedContent, TOOL_DENIED_CONTENT, TOOL_FAILED_CONTENT, TOOL_REJECTED_CONTENT, toolResultTooLargeContent } from './tool-result-content.js';

export interface ToolCallScope {
  /** The usable tools by exact name (indexTools). */
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly executeTool: ExecuteTool;
  readonly ids: IdGenerator;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  readonly frameCeilingBytes: number;
  readonly maxToolResultBytes: number;
  /** The assistant message of the same model step, when it started. */
  readonly parentMessageId: string | undefined;
}

/** The call waits for a person's decision: nothing ran, no result frame was sent. */
export interface AwaitingApproval {
  readonly approvalId: string;
}

/**
 * `announced`: the call's start, args and end frames were already sent (a conversation resumed after
 * a person decided it). Resolves with the model's text, or with the approval the call waits for.
 */
export async function runToolCall(prepared: PreparedToolCall, scope: ToolCallScope, announced = false): Promise<string | AwaitingApproval> {
  const { toolCallId, redacted } = prepared;
  if (!announced) {
    const parent = scope.parentMessageId === undefined ? {} : { parentMessageId: scope.parentMessageId };
    scope.emit({ type: 'TOOL_CALL_START', toolCallId, toolCallName: redacted.name, ...parent });
    scope.emit(toolCallArgsFrame(toolCallId, redacted.arguments, scope.frameCeilingBytes));
    scope.emit({ type: 'TOOL_CALL_END', toolCallId });
  }
  const content = await resolveContent(prepared, scope);
  if (typeof content === 'object' && 'approvalId' in content) return content;
  const forModel = typeof content === 'string' ? content : content.model;
  const forFrame = typeof content === 'string' ? content : content.frame;
  scope.emit(toolCallResultFrame(toolCallId, scope.ids.opaque(), forFrame, scope.frameCeilingBytes));
  return forModel;
}

async function resolveContent(prepared: PreparedToolCall, scope: ToolCallScope): Promise<string | { frame: string; model: string } | AwaitingApproval> {
  const args = readToolArguments(prepared.call.arguments);
  const request: ToolCallRequest = { toolCallId: prepared.toolCallId, name: prepared.call.name, operation: args.operation, parameters: args.parameters };
  const execution = await execute(request, scope);
  switch (execution.status) {
    case 'succeeded':
      // Measured before redaction: an over-large output is neither scanned nor kept in the transcript.
      if (Buffer.byteLength(execution.output, 'utf8') > scope.maxToolResultBytes) return toolResultTooLargeContent(scope.maxToolResultBytes);
      return redactText(execution.output);
    case 'denied':
      return execution.rejected === true ? TOOL_REJECTED_CONTENT : TOOL_DENIED_CONTENT;
    case 'awaiting-approval':
      return { approvalId: execution.approvalId };
    case 'replayed':
      return execution.content;
    case 'refused':
      // Arguments without the promised shape, or an undeclared operation: the loop's own words, to both.
      if (args.problem !== null) return args.problem;
      if (execution.operations !== undefined) return INVALID_ARGUMENTS_CONTENT.operation(execution.operations);
      return { frame: TOOL_FAILED_CONTENT, model: redactText(refusedContent(execution.reason)) };
    default:
      // The error text is for the caller's log; neither the stream nor the model sees it.
      return TOOL_FAILED_CONTENT;
  }
}

async function execute(request: ToolCallRequest, scope: ToolCallScope): Promise<ToolExecution> {
  const { signal } = scope;
  throwIfAborted(signal);
  try {
    return await untilAborted(scope.executeTool(request, signal), signal);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw error;
  }
}
