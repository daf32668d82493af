// Turns a bundle run's stream frames (SPEC.md "Bundle stream frames", AG-UI) into a chat transcript:
// assistant messages grown from their deltas, tool calls with arguments and results (withheld ones
// marked), and the run's end. Pure, so the order rules are tested without a browser.

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
  | { readonly kind: 'end'; readonly id: string; readonly runId: string };

export type StreamFrame = { readonly type: string } & Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

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
    case 'RUN_FINISHED':
      return [...items, { kind: 'end', id: `end-${text(frame.runId)}`, runId: text(frame.runId) }];
    default:
      return [...items];
  }
}
