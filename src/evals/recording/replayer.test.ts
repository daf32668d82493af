import { describe, expect, it } from 'vitest';
import { TOOL_DENIED_CONTENT } from '../../agent/index.js';
import { Replayer } from './replayer.js';
import type { Recording } from './recording.js';

const call = (name: string, operation: string, parameters: Record<string, unknown> = {}) => ({ toolCallId: 'c1', name, operation, parameters });
const signal = new AbortController().signal;

function recordingOf(result: string, isError: boolean): Recording {
  return {
    steps: [
      { model: { text: '', toolCalls: [{ tool: 'calculator', operation: 'evaluate', arguments: { expression: '1+1' } }] } },
      { tool: 'calculator', operation: 'evaluate', arguments: { expression: '1+1' }, result, isError },
      { model: { text: 'Done.', toolCalls: [] } },
    ],
  };
}

describe('Replayer, replay "all"', () => {
  it('answers a call of a tool the conversation does not offer with the recorded denial when the recorded run was denied it too', async () => {
    const replayer = new Replayer(recordingOf(TOOL_DENIED_CONTENT, true), 'all');
    const execute = replayer.executeTool(new Set(['clock']));
    for await (const _part of replayer.model().stream({ messages: [], tools: [], signal })) void _part;
    expect(await execute(call('calculator', 'evaluate', { expression: '1+1' }), signal)).toEqual({ status: 'replayed', content: TOOL_DENIED_CONTENT });
    expect(replayer.divergence).toBeNull();
  });

  it('diverges at a call of a tool the conversation no longer offers when the recorded run made it', async () => {
    const replayer = new Replayer(recordingOf('{"result":2}', false), 'all');
    const execute = replayer.executeTool(new Set(['clock']));
    for await (const _part of replayer.model().stream({ messages: [], tools: [], signal })) void _part;
    await execute(call('calculator', 'evaluate', { expression: '1+1' }), signal);
    expect(replayer.divergence).toBe('Replay diverged at step 2.');
  });
});
