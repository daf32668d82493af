// Turns a bundle run's stream frames (SPEC.md "Bundle stream frames", AG-UI) into a chat transcript:
// assistant messages grown from their deltas, tool calls with arguments and results (withheld ones
// marked), and the run's end — or, when the run stops for a person's decision (DESIGN §13), the
// interrupts it waits on. Pure, so the order rules are tested without a browser.
import type { BundleRun } from '../api/types';

export type TranscriptItem =
  | { readonly kind: 'user'; readonly id: string; readonly text: string }
  | { readonly kind: 'assistant'; readonly id: string; readonly text: string }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly name: string;
      readonly args: string | null;
      readonly argsWithheld: boolean;
      readonly result: string | null;
      readonly resultWithheld: boolean;
    }
  | { readonly kind: 'error'; readonly id: string; readonly text: string }
  | { readonly kind: 'end'; readonly id: string; readonly runId: string }
  | InterruptItem;

/** A tool call the run waits on: `id` is its approvalId (AG-UI interrupt outcome, reason tool_approval). */
export interface InterruptItem {
  readonly kind: 'interrupt';
  readonly id: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly message: string;
  readonly expiresAt: string | null;
}

export type StreamFrame = { readonly type: string } & Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The interrupts a RUN_FINISHED frame ends its stream with (none for a run that finished). */
export function interruptsOf(frame: StreamFrame): InterruptItem[] {
  const outcome = frame.outcome as { type?: unknown; interrupts?: unknown } | undefined;
  if (frame.type !== 'RUN_FINISHED' || outcome?.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) return [];
  return (outcome.interrupts as Record<string, unknown>[]).map((interrupt) => ({
    kind: 'interrupt',
    id: text(interrupt.id),
    runId: text(frame.runId),
    toolCallId: text(interrupt.toolCallId),
    message: text(interrupt.message),
    expiresAt: typeof interrupt.expiresAt === 'string' ? interrupt.expiresAt : null,
  }));
}

/**
 * A waiting run as its poll body tells it (`pendingApprovals`), for a transcript that did not see its
 * stream: each waiting tool call (its result lands there when the run goes on) and its interrupt.
 */
export function waitingItemsOf(run: BundleRun): TranscriptItem[] {
  return (run.pendingApprovals ?? []).flatMap((call): TranscriptItem[] => [
    { kind: 'tool', id: call.toolCallId, name: call.tool, args: null, argsWithheld: false, result: null, resultWithheld: false },
    {
      kind: 'interrupt',
      id: call.approvalId,
      runId: run.jobId,
      toolCallId: call.toolCallId,
      message: `The agent asks to call ${call.tool} (${call.operation}); a person decides.`,
      expiresAt: call.expiresAt,
    },
  ]);
}

export function applyStreamFrame(items: readonly TranscriptItem[], frame: StreamFrame): TranscriptItem[] {
  const update = (id: string, kind: TranscriptItem['kind'], patch: (item: TranscriptItem) => TranscriptItem): TranscriptItem[] =>
    items.map((item) => (item.id === id && item.kind === kind ? patch(item) : item));
  switch (frame.type) {
    case 'TEXT_MESSAGE_START':
      return items.some((item) => item.id === frame.messageId) ? [...items] : [...items, { kind: 'assistant', id: text(frame.messageId), text: '' }];
    case 'TEXT_MESSAGE_CONTENT': {
      const id = text(frame.messageId);
      if (!items.some((item) => item.kind === 'assistant' && item.id === id)) return [...items, { kind: 'assistant', id, text: text(frame.delta) }];
      return update(id, 'assistant', (item) => ({ ...item, text: (item as { text: string }).text + text(frame.delta) }));
    }
    case 'TOOL_CALL_START':
      return [...items, { kind: 'tool', id: text(frame.toolCallId), name: text(frame.toolCallName), args: null, argsWithheld: false, result: null, resultWithheld: false }];
    case 'TOOL_CALL_ARGS':
      return update(text(frame.toolCallId), 'tool', (item) => ({ ...item, args: text(frame.delta), argsWithheld: frame.withheld === true }) as TranscriptItem);
    case 'TOOL_CALL_RESULT':
      return update(text(frame.toolCallId), 'tool', (item) => ({ ...item, result: text(frame.content), resultWithheld: frame.withheld === true }) as TranscriptItem);
    case 'RUN_ERROR':
      return [...items, { kind: 'error', id: `error-${items.length}`, text: text(frame.message) || 'The run failed.' }];
    case 'RUN_FINISHED': {
      // Parked for a decision: the run has not ended, it waits (its continuation streams later).
      const interrupts = interruptsOf(frame);
      if (interrupts.length > 0) return [...items, ...interrupts.filter((interrupt) => !items.some((item) => item.kind === 'interrupt' && item.id === interrupt.id))];
      return [...items, { kind: 'end', id: `end-${text(frame.runId)}`, runId: text(frame.runId) }];
    }
    default:
      return [...items];
  }
}
