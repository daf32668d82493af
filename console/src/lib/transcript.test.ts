import { describe, expect, it } from 'vitest';
import { applyStreamFrame, interruptsOf, waitingItemsOf, type StreamFrame, type TranscriptItem } from './transcript';

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

  it('ends a run parked for a decision with its interrupts, not with the end (DESIGN §13)', () => {
    const parked: StreamFrame = {
      type: 'RUN_FINISHED',
      threadId: 'h',
      runId: 'j',
      outcome: { type: 'interrupt', interrupts: [{ id: 'a1', reason: 'tool_approval', message: 'The agent asks to call clock (now); a person decides.', toolCallId: 't1', expiresAt: '2026-01-02T00:00:00.000Z' }] },
    };
    const items = run([{ type: 'TOOL_CALL_START', toolCallId: 't1', toolCallName: 'clock' }, { type: 'TOOL_CALL_END', toolCallId: 't1' }, parked, parked]);
    expect(items.slice(1)).toEqual([
      { kind: 'interrupt', id: 'a1', runId: 'j', toolCallId: 't1', message: 'The agent asks to call clock (now); a person decides.', expiresAt: '2026-01-02T00:00:00.000Z' },
    ]);
    expect(interruptsOf({ type: 'RUN_FINISHED', runId: 'j' })).toEqual([]);
    expect(interruptsOf({ type: 'RUN_ERROR', outcome: parked.outcome })).toEqual([]);
    // The continuation fills the held call's result, then ends.
    const continued = [
      { type: 'RUN_STARTED', runId: 'j' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 't1', content: 'Tool call rejected by an approver.' },
      { type: 'RUN_FINISHED', runId: 'j' },
    ].reduce<TranscriptItem[]>(applyStreamFrame, items);
    expect(continued[0]).toMatchObject({ kind: 'tool', result: 'Tool call rejected by an approver.' });
    expect(continued.at(-1)).toEqual({ kind: 'end', id: 'end-j', runId: 'j' });
  });

  it('takes a waiting run from its poll body: the held tool call and its interrupt', () => {
    const items = waitingItemsOf({
      jobId: 'j',
      status: 'Running',
      error: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      completedAt: null,
      result: null,
      pendingApprovals: [{ approvalId: 'a1', toolCallId: 't1', tool: 'clock', operation: 'now', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null }],
    });
    expect(items).toEqual([
      { kind: 'tool', id: 't1', name: 'clock', args: null, argsWithheld: false, result: null, resultWithheld: false },
      { kind: 'interrupt', id: 'a1', runId: 'j', toolCallId: 't1', message: 'The agent asks to call clock (now); a person decides.', expiresAt: null },
    ]);
  });
});
