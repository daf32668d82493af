// Withholding of oversized tool frames (SPEC.md: above the ceiling, `delta` becomes `{}` and `content`
// becomes empty, with `withheld: true`). Values are measured after redaction, in UTF-8 bytes, and are
// never truncated; text deltas are not subject to the ceiling.
import type { AgentEvent } from './agent-event.js';

export const WITHHELD_ARGS_DELTA = '{}';

function exceeds(text: string, ceilingBytes: number): boolean {
  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  return text.length * 3 > ceilingBytes && Buffer.byteLength(text, 'utf8') > ceilingBytes;
}

export function toolCallArgsFrame(toolCallId: string, redactedArguments: string, ceilingBytes: number): AgentEvent {
  return exceeds(redactedArguments, ceilingBytes)
    ? { type: 'TOOL_CALL_ARGS', toolCallId, delta: WITHHELD_ARGS_DELTA, withheld: true }
    : { type: 'TOOL_CALL_ARGS', toolCallId, delta: redactedArguments };
}

export function toolCallResultFrame(toolCallId: string, messageId: string, redactedContent: string, ceilingBytes: number): AgentEvent {
  return exceeds(redactedContent, ceilingBytes)
    ? { type: 'TOOL_CALL_RESULT', toolCallId, messageId, content: '', role: 'tool', withheld: true }
    : { type: 'TOOL_CALL_RESULT', toolCallId, messageId, content: redactedContent, role: 'tool' };
}
