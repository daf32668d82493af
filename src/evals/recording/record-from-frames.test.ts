import { describe, expect, it } from 'vitest';
import { INVALID_ARGUMENTS_CONTENT, TOOL_DENIED_CONTENT, TOOL_FAILED_CONTENT, TOOL_REJECTED_CONTENT } from '../../agent/index.js';
import type { BundleFrame } from '../../bundles/index.js';
import { isErrorContent, recordFromFrames } from './record-from-frames.js';

// Frame builders: a model step's text message, and one tool call as run-tool-call.ts sends it.
const text = (messageId: string, ...deltas: string[]): BundleFrame[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta): BundleFrame => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];
const announce = (id: string, tool: string, operation: string, parameters: object, parent?: string): BundleFrame[] => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: tool, ...(parent === undefined ? {} : { parentMessageId: parent }) },
  { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify({ operation, parameters }) },
  { type: 'TOOL_CALL_END', toolCallId: id },
];
const result = (id: string, content: string): BundleFrame => ({ type: 'TOOL_CALL_RESULT', toolCallId: id, messageId: `r-${id}`, content, role: 'tool' });
const call = (id: string, tool: string, operation: string, parameters: object, content: string, parent?: string): BundleFrame[] => [
  ...announce(id, tool, operation, parameters, parent),
  result(id, content),
];
const started: BundleFrame = { type: 'RUN_STARTED', threadId: 'h', runId: 'job' };
const finished: BundleFrame = { type: 'RUN_FINISHED', threadId: 'h', runId: 'job' };
const run = (...frames: BundleFrame[][]): BundleFrame[] => [started, ...frames.flat(), finished];

async function stepsOf(frames: BundleFrame[]) {
  const recorded = await recordFromFrames(frames);
  if (recorded.outcome !== 'recorded') throw new Error(`expected a recording, got ${recorded.outcome}`);
  return recorded.recording.steps;
}

describe('recordFromFrames', () => {
  it('records a text-only turn as one model step with its deltas joined', async () => {
    expect(await stepsOf(run(text('m1', 'Hello ', 'there')))).toEqual([{ model: { text: 'Hello there', toolCalls: [] } }]);
  });

  it('puts the tool calls a text step asked for in that step, each followed by its result, then the final answer', async () => {
    const steps = await stepsOf(
      run(
        text('m1', 'Let me check.'),
        call('c1', 'clock', 'now', {}, '{"iso":"2026-01-01T00:00:00Z"}', 'm1'),
        call('c2', 'calculator', 'evaluate', { expression: '1+1' }, '{"result":2}', 'm1'),
        text('m2', 'Done.'),
      ),
    );
    expect(steps).toEqual([
      {
        model: {
          text: 'Let me check.',
          toolCalls: [
            { tool: 'clock', operation: 'now', arguments: {} },
            { tool: 'calculator', operation: 'evaluate', arguments: { expression: '1+1' } },
          ],
        },
      },
      { tool: 'clock', operation: 'now', arguments: {}, result: '{"iso":"2026-01-01T00:00:00Z"}', isError: false },
      { tool: 'calculator', operation: 'evaluate', arguments: { expression: '1+1' }, result: '{"result":2}', isError: false },
      { model: { text: 'Done.', toolCalls: [] } },
    ]);
  });

  it('records a step without text as text "", and puts consecutive calls with no text between them in one model step', async () => {
    const steps = await stepsOf(run(call('c1', 'clock', 'now', {}, 'one'), call('c2', 'clock', 'now', { zone: 'UTC' }, 'two'), text('m1', 'Both done.')));
    expect(steps).toEqual([
      { model: { text: '', toolCalls: [{ tool: 'clock', operation: 'now', arguments: {} }, { tool: 'clock', operation: 'now', arguments: { zone: 'UTC' } }] } },
      { tool: 'clock', operation: 'now', arguments: {}, result: 'one', isError: false },
      { tool: 'clock', operation: 'now', arguments: { zone: 'UTC' }, result: 'two', isError: false },
      { model: { text: 'Both done.', toolCalls: [] } },
    ]);
  });

  it('opens a new step for a call without a parent message after a step that had text', async () => {
    const steps = await stepsOf(run(text('m1', 'First.'), call('c1', 'clock', 'now', {}, 'one', 'm1'), call('c2', 'clock', 'now', {}, 'two'), text('m2', 'Done.')));
    expect(steps.map((step) => ('model' in step ? `model:${step.model.text}:${step.model.toolCalls.length}` : `tool:${step.result}`))).toEqual([
      'model:First.:1',
      'tool:one',
      'model::1',
      'tool:two',
      'model:Done.:0',
    ]);
  });

  it('records several turns in order, each ending with its final answer', async () => {
    const steps = await stepsOf(run(text('m1', 'Hi.'), call('c1', 'clock', 'now', {}, 'noon'), text('m2', 'It is noon.'), text('m3', 'Bye.')));
    expect(steps).toEqual([
      { model: { text: 'Hi.', toolCalls: [] } },
      { model: { text: '', toolCalls: [{ tool: 'clock', operation: 'now', arguments: {} }] } },
      { tool: 'clock', operation: 'now', arguments: {}, result: 'noon', isError: false },
      { model: { text: 'It is noon.', toolCalls: [] } },
      { model: { text: 'Bye.', toolCalls: [] } },
    ]);
  });

  it('marks a denied, rejected, refused or failed call isError, and keeps what the frame said', async () => {
    const steps = await stepsOf(
      run(
        call('c1', 'http_fetch', 'get', { url: 'https://example.com' }, TOOL_DENIED_CONTENT),
        call('c2', 'memory', 'put', {}, TOOL_REJECTED_CONTENT),
        call('c3', 'calculator', 'evaluate', {}, TOOL_FAILED_CONTENT),
        call('c4', 'clock', 'explode', {}, INVALID_ARGUMENTS_CONTENT.operation(['now', 'convert'])),
        text('m1', 'Nothing worked.'),
      ),
    );
    expect(steps.slice(1, 5)).toEqual([
      { tool: 'http_fetch', operation: 'get', arguments: { url: 'https://example.com' }, result: TOOL_DENIED_CONTENT, isError: true },
      { tool: 'memory', operation: 'put', arguments: {}, result: TOOL_REJECTED_CONTENT, isError: true },
      { tool: 'calculator', operation: 'evaluate', arguments: {}, result: TOOL_FAILED_CONTENT, isError: true },
      { tool: 'clock', operation: 'explode', arguments: {}, result: INVALID_ARGUMENTS_CONTENT.operation(['now', 'convert']), isError: true },
    ]);
  });

  it('reads arguments that are not the promised JSON as the loop did: operation "" and no parameters', async () => {
    const frames: BundleFrame[] = [
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'clock' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'not json' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      result('c1', INVALID_ARGUMENTS_CONTENT.notJson),
    ];
    expect((await stepsOf(run(frames)))[1]).toEqual({ tool: 'clock', operation: '', arguments: {}, result: INVALID_ARGUMENTS_CONTENT.notJson, isError: true });
  });

  it('tells the loop’s fixed failure texts from a tool’s own output', () => {
    for (const content of [TOOL_DENIED_CONTENT, TOOL_REJECTED_CONTENT, TOOL_FAILED_CONTENT, INVALID_ARGUMENTS_CONTENT.notObject, INVALID_ARGUMENTS_CONTENT.parametersNotObject]) {
      expect(isErrorContent(content), content).toBe(true);
    }
    for (const content of ['', '{"result":2}', 'The tool call failed', 'Tool call denied by policy', 'The tool call succeeded, but its result was larger than the 10 bytes passed to the model, so it was not passed on.']) {
      expect(isErrorContent(content), content).toBe(false);
    }
  });

  it('records nothing when an ARGS or a RESULT frame was withheld above the frame ceiling', async () => {
    const withheldArgs: BundleFrame[] = [
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'json' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}', withheld: true },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      result('c1', 'ok'),
    ];
    expect(await recordFromFrames(run(text('m1', 'Calling.'), withheldArgs, text('m2', 'Done.')))).toEqual({ outcome: 'withheld' });
    const withheldResult: BundleFrame[] = [...announce('c1', 'json', 'parse', {}), { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'r', content: '', role: 'tool', withheld: true }];
    expect(await recordFromFrames(run(withheldResult, text('m1', 'Done.')))).toEqual({ outcome: 'withheld' });
  });

  it('records a delegate_task call as a tool step like any other (the sub-agent’s steps are not in the frames)', async () => {
    const steps = await stepsOf(run(call('c1', 'delegate_task', 'run', { agent: 'researcher', task: 'Find it.' }, 'Found it.'), text('m1', 'The researcher found it.')));
    expect(steps).toEqual([
      { model: { text: '', toolCalls: [{ tool: 'delegate_task', operation: 'run', arguments: { agent: 'researcher', task: 'Find it.' } }] } },
      { tool: 'delegate_task', operation: 'run', arguments: { agent: 'researcher', task: 'Find it.' }, result: 'Found it.', isError: false },
      { model: { text: 'The researcher found it.', toolCalls: [] } },
    ]);
  });

  it('records a call announced before a park for approval and answered after the resume as one tool step', async () => {
    const interrupted: BundleFrame = {
      type: 'RUN_FINISHED',
      threadId: 'h',
      runId: 'job',
      outcome: { type: 'interrupt', interrupts: [{ id: 'a1', reason: 'tool_approval', message: 'A person decides.', toolCallId: 'c1' }] },
    };
    const frames: BundleFrame[] = [
      started,
      ...text('m1', 'I need to write this down.'),
      ...announce('c1', 'memory', 'put', { key: 'k', value: 'v' }, 'm1'),
      interrupted,
      started,
      result('c1', '{"stored":true}'),
      ...call('c2', 'memory', 'get', { key: 'k' }, '"v"', 'm1'),
      ...text('m2', 'Written and read back.'),
      finished,
    ];
    expect(await stepsOf(frames)).toEqual([
      {
        model: {
          text: 'I need to write this down.',
          toolCalls: [
            { tool: 'memory', operation: 'put', arguments: { key: 'k', value: 'v' } },
            { tool: 'memory', operation: 'get', arguments: { key: 'k' } },
          ],
        },
      },
      { tool: 'memory', operation: 'put', arguments: { key: 'k', value: 'v' }, result: '{"stored":true}', isError: false },
      { tool: 'memory', operation: 'get', arguments: { key: 'k' }, result: '"v"', isError: false },
      { model: { text: 'Written and read back.', toolCalls: [] } },
    ]);
  });

  it('keeps a parked step without text one step when its later calls come after the resume', async () => {
    const frames: BundleFrame[] = [
      started,
      ...announce('c1', 'memory', 'put', { key: 'k' }),
      { type: 'RUN_FINISHED', threadId: 'h', runId: 'job', outcome: { type: 'interrupt', interrupts: [{ id: 'a1', reason: 'tool_approval', message: 'm', toolCallId: 'c1' }] } },
      started,
      result('c1', TOOL_REJECTED_CONTENT),
      ...call('c2', 'clock', 'now', {}, 'noon'),
      ...text('m1', 'It was rejected.'),
      finished,
    ];
    const steps = await stepsOf(frames);
    expect(steps[0]).toEqual({ model: { text: '', toolCalls: [{ tool: 'memory', operation: 'put', arguments: { key: 'k' } }, { tool: 'clock', operation: 'now', arguments: {} }] } });
    expect(steps.slice(1).map((step) => ('model' in step ? 'model' : `${step.tool}:${String(step.isError)}`))).toEqual(['memory:true', 'clock:false', 'model']);
  });

  it('finds nothing to record in a run that made no model answer and no tool call', async () => {
    expect(await recordFromFrames([started, { type: 'RUN_ERROR', message: 'The run was cancelled.' }])).toEqual({ outcome: 'empty' });
  });

  it('reads the frames as they stream from an async source', async () => {
    async function* frames(): AsyncGenerator<BundleFrame> {
      yield* run(text('m1', 'streamed'));
    }
    expect(await recordFromFrames(frames())).toEqual({ outcome: 'recorded', recording: { steps: [{ model: { text: 'streamed', toolCalls: [] } }] } });
  });
});
