import { describe, expect, it } from 'vitest';
import { applyStreamFrame, type StreamFrame, type TranscriptItem } from './transcript';

const run = (frames: StreamFrame[]): TranscriptItem[] => frames.reduce<TranscriptItem[]>(applyStreamFrame, []);

describe('applyStreamFrame', () => {
  it('builds a tool call with its arguments and result, then the assistant text from its deltas', () => {
    const items = run([
      { type: 'RUN_STARTED', threadId: 'h', runId: 'j' },
      { type: 'TOOL_CALL_START', toolCallId: 't1', toolCallName: 'clock' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 't1', delta: '{"operation":"now"}' },
      { type: 'TOOL_CALL_END', toolCallId: 't1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 't1', messageId: 'm0', content: '2026-01-01', role: 'tool' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'It is ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'now.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: 'h', runId: 'j' },
    ]);
    expect(items).toEqual([
      { kind: 'tool', id: 't1', name: 'clock', args: '{"operation":"now"}', argsWithheld: false, result: '2026-01-01', resultWithheld: false },
      { kind: 'assistant', id: 'm1', text: 'It is now.' },
      { kind: 'end', id: 'end-j', runId: 'j' },
    ]);
  });

  it('marks withheld arguments and results', () => {
    const [tool] = run([
      { type: 'TOOL_CALL_START', toolCallId: 't', toolCallName: 'text' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 't', delta: '{}', withheld: true },
      { type: 'TOOL_CALL_RESULT', toolCallId: 't', content: '', withheld: true },
    ]);
    expect(tool).toMatchObject({ argsWithheld: true, resultWithheld: true });
  });

  it('ends with the caller-safe message of RUN_ERROR', () => {
    expect(run([{ type: 'RUN_ERROR', message: 'The run was cancelled.' }])).toEqual([{ kind: 'error', id: 'error-0', text: 'The run was cancelled.' }]);
  });
});
