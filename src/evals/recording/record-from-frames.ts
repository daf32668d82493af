// A bundle run's frames as a case's recording (DESIGN §19 "A run becomes a case", decision 4001): every
// model answer and tool call with its result, in frame order, holding nothing the frames do not show
// (they are already redacted). RUN_* frames are skipped, so a run parked for an approval and resumed
// reads as one conversation: the call announced before the park is answered by the result after it.
//
// Grouping, since frames do not mark where a model step without text ends:
// - TEXT_MESSAGE_START opens a model step; its text is its TEXT_MESSAGE_CONTENT deltas joined.
// - A TOOL_CALL_START whose parentMessageId names a step's message belongs to that step; one without
//   joins the latest step when that step has no text, else opens a step without text. So consecutive
//   tool calls with no text between them are one model step asking for all of them, which a replay
//   answers the same way.
// - A tool step is each TOOL_CALL_RESULT: the call's tool, the operation and parameters of its ARGS JSON
//   (read as the loop reads them), the result text, and isError when that text is one of the loop's
//   fixed denial, rejection, refusal or failure texts.
// A withheld ARGS or RESULT frame makes the recording incomplete: nothing is recorded then.
import { INVALID_ARGUMENTS_CONTENT, readToolArguments, TOOL_DENIED_CONTENT, TOOL_FAILED_CONTENT, TOOL_REJECTED_CONTENT } from '../../agent/index.js';
import type { BundleFrame } from '../../bundles/index.js';
import type { RecordedToolCall, Recording, RecordingStep } from './recording.js';

export type RecordedFrames =
  | { readonly outcome: 'recorded'; readonly recording: Recording }
  /** A frame was withheld above the frame ceiling. */
  | { readonly outcome: 'withheld' }
  /** No model answer and no tool call: nothing to record. */
  | { readonly outcome: 'empty' };

interface CallEntry {
  readonly tool: string;
  args: string;
}

interface ModelEntry {
  readonly kind: 'model';
  readonly messageId: string | undefined;
  text: string;
  readonly calls: CallEntry[];
}

interface ToolEntry {
  readonly kind: 'tool';
  readonly call: CallEntry;
  readonly result: string;
}

export async function recordFromFrames(frames: AsyncIterable<BundleFrame> | Iterable<BundleFrame>): Promise<RecordedFrames> {
  const entries: Array<ModelEntry | ToolEntry> = [];
  const byMessage = new Map<string, ModelEntry>();
  const byCall = new Map<string, CallEntry>();
  let latest: ModelEntry | undefined;
  const open = (messageId: string | undefined): ModelEntry => {
    latest = { kind: 'model', messageId, text: '', calls: [] };
    entries.push(latest);
    if (messageId !== undefined) byMessage.set(messageId, latest);
    return latest;
  };
  for await (const frame of frames) {
    switch (frame.type) {
      case 'TEXT_MESSAGE_START':
        open(frame.messageId);
        break;
      case 'TEXT_MESSAGE_CONTENT':
        (byMessage.get(frame.messageId) ?? open(frame.messageId)).text += frame.delta;
        break;
      case 'TOOL_CALL_START': {
        const parent = frame.parentMessageId;
        const step = parent !== undefined ? (byMessage.get(parent) ?? open(parent)) : latest !== undefined && latest.messageId === undefined ? latest : open(undefined);
        const call: CallEntry = { tool: frame.toolCallName, args: '' };
        step.calls.push(call);
        byCall.set(frame.toolCallId, call);
        break;
      }
      case 'TOOL_CALL_ARGS': {
        if (frame.withheld === true) return { outcome: 'withheld' };
        const call = byCall.get(frame.toolCallId);
        if (call !== undefined) call.args += frame.delta;
        break;
      }
      case 'TOOL_CALL_RESULT': {
        if (frame.withheld === true) return { outcome: 'withheld' };
        const call = byCall.get(frame.toolCallId);
        if (call !== undefined) entries.push({ kind: 'tool', call, result: frame.content });
        break;
      }
      default:
        // TEXT_MESSAGE_END, TOOL_CALL_END and the run's own frames carry nothing a step holds.
        break;
    }
  }
  if (entries.length === 0) return { outcome: 'empty' };
  return { outcome: 'recorded', recording: { steps: entries.map(toStep) } };
}

function toStep(entry: ModelEntry | ToolEntry): RecordingStep {
  if (entry.kind === 'model') return { model: { text: entry.text, toolCalls: entry.calls.map(toCall) } };
  return { ...toCall(entry.call), result: entry.result, isError: isErrorContent(entry.result) };
}

/** The call as the loop read it: arguments that do not have the promised shape are operation '' and `{}`, as they were governed. */
function toCall(call: CallEntry): RecordedToolCall {
  const { operation, parameters } = readToolArguments(call.args);
  return { tool: call.tool, operation, arguments: parameters };
}

const FAILURE_TEXTS: ReadonlySet<string> = new Set([
  TOOL_DENIED_CONTENT,
  TOOL_REJECTED_CONTENT,
  TOOL_FAILED_CONTENT,
  INVALID_ARGUMENTS_CONTENT.notJson,
  INVALID_ARGUMENTS_CONTENT.notObject,
  INVALID_ARGUMENTS_CONTENT.parametersNotObject,
]);
/** What the undeclared-operation text starts with, before the tool's operations are listed. */
const UNDECLARED_OPERATION = INVALID_ARGUMENTS_CONTENT.operation(['\u0000']).split('\u0000')[0]!;

/** A denial, rejection, refusal or failure: the loop's fixed texts (a tool's own output is never one of them but by coincidence). */
export function isErrorContent(content: string): boolean {
  return FAILURE_TEXTS.has(content) || (content.startsWith(UNDECLARED_OPERATION) && content.endsWith('.'));
}
