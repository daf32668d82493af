import { verifyEvents } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { ChatModelError, type ChatMessage, type ChatModel, type ChatRequest, type ChatStreamPart } from '../../models/index.js';
import { sequentialIds } from '../../platform/clock/index.js';
import type { AgentEvent } from './agent-event.js';
import type { AgentTool } from './agent-tool.js';
import type { ExecuteTool } from './execute-tool.js';
import type { ConversationInput, ConversationLimits } from './conversation-input.js';
import { MODEL_CALL_LIMIT_ERROR } from './conversation-errors.js';
import { runConversation } from './run-conversation.js';
import { INVALID_ARGUMENTS_CONTENT, TOOL_DENIED_CONTENT, TOOL_FAILED_CONTENT } from './tool-result-content.js';

// ---- a scripted in-test chat model: one script entry per model call ----

type Step = readonly ChatStreamPart[] | ((request: ChatRequest) => AsyncIterable<ChatStreamPart>);

function scriptedModel(...steps: Step[]): { model: ChatModel; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: 'in-test',
    stream(request) {
      requests.push(request);
      const step = steps[requests.length - 1];
      if (step === undefined) throw new Error(`script has no model call #${requests.length}`);
      return typeof step === 'function' ? step(request) : replay(step);
    },
  };
  return { model, requests };
}

async function* replay(parts: readonly ChatStreamPart[]): AsyncIterable<ChatStreamPart> {
  for (const part of parts) {
    await Promise.resolve();
    yield part;
  }
}

const finish = (inputTokens = 10, outputTokens = 5, finishReason: 'stop' | 'tool-calls' = 'stop'): ChatStreamPart => ({
  type: 'finish',
  finishReason,
  usage: { inputTokens, outputTokens },
});
const delta = (text: string): ChatStreamPart => ({ type: 'text-delta', delta: text });
const say = (...deltas: string[]): ChatStreamPart[] => [...deltas.map(delta), finish()];
const toolCall = (id: string, name: string, args: unknown): ChatStreamPart => ({
  type: 'tool-call',
  call: { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});
const callTools = (...calls: ChatStreamPart[]): ChatStreamPart[] => [...calls, finish(10, 5, 'tool-calls')];

const calculator: AgentTool = {
  name: 'calculator',
  description: 'Evaluates arithmetic.',
  operations: [
    {
      name: 'evaluate',
      description: 'Evaluate an expression.',
      parameters: { type: 'object', required: ['expression'], properties: { expression: { type: 'string' } }, additionalProperties: false },
    },
  ],
};
const evaluate = (expression: string) => ({ operation: 'evaluate', parameters: { expression } });

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

type Overrides = Partial<Omit<ConversationInput, 'limits'>> & { limits?: Partial<ConversationLimits> };

function harness(model: ChatModel, overrides: Overrides = {}) {
  const events: AgentEvent[] = [];
  const executeTool = vi.fn<ExecuteTool>(() => Promise.resolve({ status: 'succeeded', output: '4' }));
  const input: ConversationInput = {
    model,
    systemPrompt: 'You are terse.',
    history: [],
    userMessages: ['What is 2+2?'],
    maxTurns: 10,
    tools: [calculator],
    executeTool,
    ids: sequentialIds('id'),
    signal: new AbortController().signal,
    emit: (event) => events.push(event),
    ...overrides,
    limits: { maxModelCallsPerTurn: 5, lifetimeTokenBudget: 1_000_000, frameCeilingBytes: 65_536, maxToolResultBytes: 1_048_576, ...overrides.limits },
  };
  return { input, events, executeTool, run: () => runConversation(input) };
}

/** Merges consecutive content frames of one message: how the redactor chunks text is not the point. */
function compact(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const event of events) {
    const prev = out.at(-1);
    if (event.type === 'TEXT_MESSAGE_CONTENT' && prev?.type === 'TEXT_MESSAGE_CONTENT' && prev.messageId === event.messageId) {
      out[out.length - 1] = { ...prev, delta: prev.delta + event.delta };
    } else out.push(event);
  }
  return out;
}

const allowedKeys: Record<AgentEvent['type'], readonly string[]> = {
  TEXT_MESSAGE_START: ['type', 'messageId', 'role'],
  TEXT_MESSAGE_CONTENT: ['type', 'messageId', 'delta'],
  TEXT_MESSAGE_END: ['type', 'messageId'],
  TOOL_CALL_START: ['type', 'toolCallId', 'toolCallName', 'parentMessageId'],
  TOOL_CALL_ARGS: ['type', 'toolCallId', 'delta', 'withheld'],
  TOOL_CALL_END: ['type', 'toolCallId'],
  TOOL_CALL_RESULT: ['type', 'toolCallId', 'messageId', 'content', 'role', 'withheld'],
};

/**
 * The frames wrapped as a bundle stream must pass the official AG-UI verifier and schemas, plus the
 * SPEC rules they do not check. AG-UI 1.0's zod schemas are open objects, so SPEC's extra `withheld`
 * validates as is; the copy without it is checked too, in case a later release closes them.
 */
async function expectValidStream(events: readonly AgentEvent[]): Promise<void> {
  const run = { threadId: 'handle-1', runId: 'job-1' };
  const frames = [{ type: 'RUN_STARTED', ...run }, ...events, { type: 'RUN_FINISHED', ...run }] as unknown as BaseEvent[];
  for (const frame of frames) {
    const { withheld: _withheld, ...withoutWithheld } = frame as BaseEvent & { withheld?: true };
    expect(EventSchemas.safeParse(frame).success, JSON.stringify(frame)).toBe(true);
    expect(EventSchemas.safeParse(withoutWithheld).success, JSON.stringify(frame)).toBe(true);
  }
  await expect(lastValueFrom(from(frames).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(frames.length);
  for (const event of events) {
    expect(Object.keys(event).every((key) => allowedKeys[event.type].includes(key)), JSON.stringify(event)).toBe(true);
    if ('withheld' in event) expect(event.withheld).toBe(true);
    if (event.type === 'TEXT_MESSAGE_CONTENT') expect(event.delta).not.toBe('');
  }
  const starts = events.filter((e) => e.type === 'TEXT_MESSAGE_START').length;
  expect(events.filter((e) => e.type === 'TEXT_MESSAGE_END')).toHaveLength(starts);
}

// ---- turns ----

describe('runConversation: turns', () => {
  it('answers a single text turn, streaming one assistant message', async () => {
    const { model, requests } = scriptedModel(say('Four', '.'));
    const { run, events } = harness(model);
    const outcome = await run();
    expect(outcome).toEqual({
      conversationSucceeded: true,
      finalResponse: 'Four.',
      turnCount: 1,
      totalToolInvocations: 0,
      budgetExhausted: false,
      conversationError: null,
      usage: { inputTokens: 10, outputTokens: 5 },
      newMessages: [
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: 'Four.' },
      ],
    });
    expect(compact(events)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'id-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'id-1', delta: 'Four.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'id-1' },
    ]);
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(['calculator']);
    await expectValidStream(events);
  });

  it('sends the system prompt first, then the history, then each turn with what came before it', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer' },
    ];
    const { model, requests } = scriptedModel(say('First answer'), say('Second answer'));
    const { run, events } = harness(model, { history, userMessages: ['First', 'Second'] });
    const outcome = await run();
    expect(requests[0]!.messages).toEqual([{ role: 'system', content: 'You are terse.' }, ...history, { role: 'user', content: 'First' }]);
    expect(requests[1]!.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      ...history,
      { role: 'user', content: 'First' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second' },
    ]);
    expect(outcome.turnCount).toBe(2);
    expect(outcome.finalResponse).toBe('Second answer');
    expect(outcome.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(outcome.newMessages).toHaveLength(4);
    await expectValidStream(events);
  });

  it('omits an empty system prompt', async () => {
    const { model, requests } = scriptedModel(say('ok'));
    await harness(model, { systemPrompt: '' }).run();
    expect(requests[0]!.messages).toEqual([{ role: 'user', content: 'What is 2+2?' }]);
  });

  it('answers at most maxTurns messages and does not record the rest', async () => {
    const { model, requests } = scriptedModel(say('one'), say('two'));
    const outcome = await harness(model, { userMessages: ['1', '2', '3'], maxTurns: 2 }).run();
    expect(requests).toHaveLength(2);
    expect(outcome).toMatchObject({ conversationSucceeded: true, turnCount: 2, finalResponse: 'two' });
    expect(outcome.newMessages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['1', '2']);
  });

  it('passes maxOutputTokens and temperature through only when set', async () => {
    const { model, requests } = scriptedModel(say('a'));
    await harness(model, { limits: { maxOutputTokens: 256, temperature: 0.2 } }).run();
    expect(requests[0]).toMatchObject({ maxOutputTokens: 256, temperature: 0.2 });
    const plain = scriptedModel(say('c'));
    await harness(plain.model).run();
    expect('maxOutputTokens' in plain.requests[0]!).toBe(false);
    expect('temperature' in plain.requests[0]!).toBe(false);
  });
});

// ---- the tool loop ----

describe('runConversation: tool loop', () => {
  it('runs a call, tells the model its result and streams the exact frame sequence', async () => {
    const { model, requests } = scriptedModel(
      [delta('Let me compute.'), toolCall('call-1', 'calculator', evaluate('2+2')), finish(10, 5, 'tool-calls')],
      say('It is 4.'),
    );
    const { run, events, executeTool, input } = harness(model);
    const outcome = await run();

    const args = JSON.stringify(evaluate('2+2'));
    expect(compact(events)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'id-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'id-1', delta: 'Let me compute.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'id-1' },
      { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'calculator', parentMessageId: 'id-1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: args },
      { type: 'TOOL_CALL_END', toolCallId: 'call-1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'call-1', messageId: 'id-2', content: '4', role: 'tool' },
      { type: 'TEXT_MESSAGE_START', messageId: 'id-3', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'id-3', delta: 'It is 4.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'id-3' },
    ]);
    await expectValidStream(events);

    expect(executeTool).toHaveBeenCalledOnce();
    expect(executeTool.mock.calls[0]![0]).toEqual({ toolCallId: 'call-1', name: 'calculator', operation: 'evaluate', parameters: { expression: '2+2' } });
    expect(executeTool.mock.calls[0]![1]).toBe(input.signal);

    const toolTurn: ChatMessage[] = [
      { role: 'assistant', content: 'Let me compute.', toolCalls: [{ id: 'call-1', name: 'calculator', arguments: args }] },
      { role: 'tool', toolCallId: 'call-1', toolName: 'calculator', content: '4' },
    ];
    expect(requests[1]!.messages.slice(-2)).toEqual(toolTurn);
    expect(outcome).toMatchObject({ conversationSucceeded: true, finalResponse: 'It is 4.', turnCount: 1, totalToolInvocations: 1 });
    expect(outcome.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(outcome.newMessages).toEqual([{ role: 'user', content: 'What is 2+2?' }, ...toolTurn, { role: 'assistant', content: 'It is 4.' }]);
  });

  it('emits tool frames before any text, without parentMessageId, when the step has no text', async () => {
    const { model } = scriptedModel(
      [delta(''), toolCall('c1', 'calculator', evaluate('1+1')), delta(''), finish(10, 5, 'tool-calls')],
      say('', 'Two', ''),
    );
    const { run, events } = harness(model);
    await run();
    expect(events.map((e) => e.type)).toEqual([
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
    ]);
    expect('parentMessageId' in events[0]!).toBe(false);
    await expectValidStream(events);
  });

  it('emits no message frames for a step without text', async () => {
    const { model } = scriptedModel(say(''));
    const { run, events } = harness(model);
    const outcome = await run();
    expect(events).toEqual([]);
    expect(outcome.finalResponse).toBe('');
    expect(outcome.newMessages).toEqual([{ role: 'user', content: 'What is 2+2?' }]);
  });

  it('runs several calls of one step in order, each frame group back to back before its result', async () => {
    const { model, requests } = scriptedModel(
      callTools(toolCall('a', 'calculator', evaluate('1')), toolCall('b', 'calculator', evaluate('2'))),
      say('done'),
    );
    const { run, events, executeTool } = harness(model);
    executeTool.mockImplementation((call) => Promise.resolve({ status: 'succeeded', output: `out-${call.toolCallId}` }));
    const outcome = await run();
    expect(events.slice(0, 8).map((e) => `${e.type}:${'toolCallId' in e ? e.toolCallId : ''}`)).toEqual([
      'TOOL_CALL_START:a',
      'TOOL_CALL_ARGS:a',
      'TOOL_CALL_END:a',
      'TOOL_CALL_RESULT:a',
      'TOOL_CALL_START:b',
      'TOOL_CALL_ARGS:b',
      'TOOL_CALL_END:b',
      'TOOL_CALL_RESULT:b',
    ]);
    expect(requests[1]!.messages.slice(-2).map((m) => m.content)).toEqual(['out-a', 'out-b']);
    expect(outcome.totalToolInvocations).toBe(2);
    await expectValidStream(events);
  });

  it('reports a denied call with the fixed content, tells the model the same and goes on', async () => {
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', evaluate('2+2'))), say('I may not.'));
    const { run, events, executeTool } = harness(model);
    executeTool.mockResolvedValue({ status: 'denied' });
    const outcome = await run();
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'Tool call denied by policy.' });
    expect(TOOL_DENIED_CONTENT).toBe('Tool call denied by policy.');
    expect(requests[1]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', toolName: 'calculator', content: TOOL_DENIED_CONTENT });
    expect(outcome).toMatchObject({ conversationSucceeded: true, finalResponse: 'I may not.', totalToolInvocations: 1 });
    await expectValidStream(events);
  });

  it('hands a tool it was not offered to executeTool, where every call is decided, and tells the model of the denial', async () => {
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'shell', { operation: 'run', parameters: { cmd: 'ls' } })), say('ok'));
    const { run, events, executeTool } = harness(model);
    executeTool.mockResolvedValue({ status: 'denied' });
    const outcome = await run();
    expect(executeTool.mock.calls.map(([call]) => call)).toEqual([{ toolCallId: 'c1', name: 'shell', operation: 'run', parameters: { cmd: 'ls' } }]);
    expect(events[0]).toEqual({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'shell' });
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: TOOL_DENIED_CONTENT });
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: TOOL_DENIED_CONTENT });
    expect(outcome.totalToolInvocations).toBe(1);
    await expectValidStream(events);
  });

  it('tells the model the host-written reason of a refused call and keeps the frame generic', async () => {
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', evaluate('1/0'))), say('Fixed.'));
    const { run, events, executeTool } = harness(model);
    executeTool.mockResolvedValue({ status: 'refused', reason: "parameters must have required property 'expression'" });
    await run();
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: TOOL_FAILED_CONTENT });
    expect(requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: "The tool call failed: parameters must have required property 'expression'. Correct the call and try again.",
    });
  });

  it('reports a failed call with generic content and never the error text', async () => {
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', evaluate('1/0'))), say('It failed.'));
    const { run, events, executeTool } = harness(model);
    executeTool.mockResolvedValue({ status: 'failed', error: 'Error: ECONNREFUSED /srv/internal/secret-path' });
    const outcome = await run();
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: TOOL_FAILED_CONTENT });
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: TOOL_FAILED_CONTENT });
    const everything = JSON.stringify([events, outcome, requests.map((r) => r.messages)]);
    expect(everything).not.toContain('ECONNREFUSED');
    expect(outcome).toMatchObject({ conversationSucceeded: true, totalToolInvocations: 1 });
  });

  it.each([
    ['arguments that are not JSON', '{"operation": "evaluate", ', INVALID_ARGUMENTS_CONTENT.notJson],
    ['arguments that are not an object', '[1, 2]', INVALID_ARGUMENTS_CONTENT.notObject],
    ['a missing operation', '{"parameters": {"expression": "1"}}', INVALID_ARGUMENTS_CONTENT.operation(['evaluate'])],
    ['an undeclared operation', '{"operation": "solve", "parameters": {}}', INVALID_ARGUMENTS_CONTENT.operation(['evaluate'])],
    ['parameters that are not an object', '{"operation": "evaluate", "parameters": "1+1"}', INVALID_ARGUMENTS_CONTENT.parametersNotObject],
  ])('counts a call with %s, hands it on naming an operation only when it named a usable one, and tells the model the loop’s words when it is refused', async (_, args, content) => {
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', args)), say('Sorry.'));
    const { run, events, executeTool } = harness(model);
    // What the governed call answers for an operation the tool does not declare.
    executeTool.mockResolvedValue({ status: 'refused', reason: 'calculator declares no such operation', operations: ['evaluate'] });
    const outcome = await run();
    const asked = executeTool.mock.calls.map(([call]) => call.operation);
    expect(asked).toEqual([args.includes('"solve"') ? 'solve' : '']);
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content });
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', content });
    expect(outcome).toMatchObject({ conversationSucceeded: true, totalToolInvocations: 1 });
    await expectValidStream(events);
  });

  it('gives a call without parameters an empty parameters object', async () => {
    const { model } = scriptedModel(callTools(toolCall('c1', 'calculator', { operation: 'evaluate' })), say('ok'));
    const { run, executeTool } = harness(model);
    await run();
    expect(executeTool.mock.calls[0]![0].parameters).toEqual({});
  });

  it('mints a fresh toolCallId when the provider reuses one or sends none, keeping history consistent', async () => {
    const { model, requests } = scriptedModel(
      callTools(toolCall('call_0', 'calculator', evaluate('1'))),
      callTools(toolCall('call_0', 'calculator', evaluate('2')), toolCall('', 'calculator', evaluate('3'))),
      say('done'),
    );
    const { run, events, executeTool } = harness(model);
    const outcome = await run();
    const starts = events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => e.toolCallId);
    expect(new Set(starts).size).toBe(3);
    expect(starts[0]).toBe('call_0');
    expect(executeTool.mock.calls.map((c) => c[0].toolCallId)).toEqual(starts);
    const stored = outcome.newMessages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    const results = outcome.newMessages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    expect(stored).toEqual(starts);
    expect(results).toEqual(starts);
    expect(requests[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(starts);
    await expectValidStream(events);
  });

  it('ends the conversation as failed when the model still wants tools after maxModelCallsPerTurn calls', async () => {
    const loop = (): ChatStreamPart[] => callTools(toolCall('c', 'calculator', evaluate('1')));
    const { model, requests } = scriptedModel(loop(), loop(), loop(), say('never'));
    const { run, events, executeTool } = harness(model, { userMessages: ['go', 'and again'], limits: { maxModelCallsPerTurn: 3 } });
    const outcome = await run();
    expect(requests).toHaveLength(3);
    expect(executeTool).toHaveBeenCalledTimes(3);
    expect(outcome).toMatchObject({
      conversationSucceeded: false,
      conversationError: MODEL_CALL_LIMIT_ERROR,
      turnCount: 1,
      totalToolInvocations: 3,
      budgetExhausted: false,
    });
    expect(outcome.newMessages.at(-1)?.role).toBe('tool');
    expect(outcome.newMessages.filter((m) => m.role === 'user')).toHaveLength(1);
    await expectValidStream(events);
  });
});

// ---- budget and failures ----

describe('runConversation: budget, model failures and cancellation', () => {
  it('stops gracefully before a turn the lifetime budget cannot start', async () => {
    const costs = (parts: ChatStreamPart[]): ChatStreamPart[] =>
      parts.map((p) => (p.type === 'finish' ? { ...p, usage: { inputTokens: 40, outputTokens: 20 } } : p));
    const { model: costly } = scriptedModel(...[callTools(toolCall('c1', 'calculator', evaluate('1'))), say('A'), say('B')].map(costs));
    const { run } = harness(costly, { userMessages: ['first', 'second'], limits: { lifetimeTokenBudget: 100 } });
    const outcome = await run();
    // 60 tokens after the tool step (< 100, so the turn goes on), 120 after the answer: turn 2 never starts.
    expect(outcome).toMatchObject({
      conversationSucceeded: true,
      budgetExhausted: true,
      conversationError: null,
      turnCount: 1,
      finalResponse: 'A',
      usage: { inputTokens: 80, outputTokens: 40 },
    });
    expect(outcome.newMessages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first']);
  });

  it('stops gracefully mid-turn, after running the calls it was asked for, with the text so far', async () => {
    const { model, requests } = scriptedModel(
      [delta('Checking.'), toolCall('c1', 'calculator', evaluate('1')), finish(60, 0, 'tool-calls')],
      say('never'),
    );
    const { run, events, executeTool } = harness(model, { limits: { lifetimeTokenBudget: 50 } });
    const outcome = await run();
    expect(requests).toHaveLength(1);
    expect(executeTool).toHaveBeenCalledOnce();
    expect(outcome).toMatchObject({ conversationSucceeded: true, budgetExhausted: true, turnCount: 1, finalResponse: 'Checking.', totalToolInvocations: 1 });
    expect(outcome.newMessages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    await expectValidStream(events);
  });

  it('keeps the previous turn’s response when a later turn stops on the budget before answering', async () => {
    const costs = (parts: ChatStreamPart[]): ChatStreamPart[] =>
      parts.map((p) => (p.type === 'finish' ? { ...p, usage: { inputTokens: 20, outputTokens: 10 } } : p));
    const { model } = scriptedModel(...[say('First answer.'), callTools(toolCall('c1', 'calculator', evaluate('1'))), say('never')].map(costs));
    const outcome = await harness(model, { userMessages: ['one', 'two'], limits: { lifetimeTokenBudget: 50 } }).run();
    // 30 tokens after turn 1, 60 after turn 2's tool step: turn 2 stops before its answer.
    expect(outcome).toMatchObject({ conversationSucceeded: true, budgetExhausted: true, turnCount: 2, finalResponse: 'First answer.' });
  });

  it('runs nothing when the budget is already spent', async () => {
    const { model, requests } = scriptedModel(say('never'));
    const outcome = await harness(model, { limits: { lifetimeTokenBudget: 0 } }).run();
    expect(requests).toHaveLength(0);
    expect(outcome).toMatchObject({ conversationSucceeded: true, budgetExhausted: true, turnCount: 0, finalResponse: '', newMessages: [] });
  });

  it('stops gracefully when a model call is refused on the spend limit, keeping the turns before it (DESIGN §16)', async () => {
    // eslint-disable-next-line require-yield -- refused before anything streams, as the metered model does
    async function* refused(): AsyncIterable<ChatStreamPart> {
      await Promise.resolve();
      throw new ChatModelError('spend-limit', 'The spend limit was reached.');
    }
    const { model, requests } = scriptedModel(say('First answer.'), () => refused());
    const { run, events } = harness(model, { userMessages: ['one', 'two', 'three'], maxTurns: 3 });
    const outcome = await run();
    expect(requests).toHaveLength(2);
    expect(outcome).toMatchObject({
      conversationSucceeded: true,
      budgetExhausted: true,
      conversationError: 'The spend limit was reached.',
      turnCount: 2,
      finalResponse: 'First answer.',
    });
    expect(outcome.newMessages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'two']);
    await expectValidStream(events);
  });

  it('turns a ChatModelError into a conversation failure with its caller-safe message, closing the open message', async () => {
    async function* timesOut(): AsyncIterable<ChatStreamPart> {
      await Promise.resolve();
      yield delta('Partial answer ');
      throw new ChatModelError('timeout', 'The chat model timed out.', { cause: new Error('upstream body sk-live-secret') });
    }
    const { model } = scriptedModel(say('First.'), timesOut);
    const { run, events } = harness(model, { userMessages: ['one', 'two', 'three'] });
    const outcome = await run();
    expect(outcome).toMatchObject({
      conversationSucceeded: false,
      conversationError: 'The chat model timed out.',
      turnCount: 2,
      budgetExhausted: false,
      // The failed turn produced no response: the last one a turn did produce stays.
      finalResponse: 'First.',
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    expect(outcome.newMessages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First.' },
      { role: 'user', content: 'two' },
    ]);
    expect(compact(events).slice(-3)).toEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'id-2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'id-2', delta: 'Partial answer ' },
      { type: 'TEXT_MESSAGE_END', messageId: 'id-2' },
    ]);
    await expectValidStream(events);
  });

  it('lets an error that is not a ChatModelError reject (a bug, not a run outcome)', async () => {
    async function* broken(): AsyncIterable<ChatStreamPart> {
      await Promise.resolve();
      yield* [];
      throw new TypeError('provider bug');
    }
    await expect(harness(scriptedModel(broken).model).run()).rejects.toThrow('provider bug');
  });

  it('aborts the model stream mid-message and rejects', async () => {
    const reached = deferred();
    async function* hangs(request: ChatRequest): AsyncIterable<ChatStreamPart> {
      yield delta('Working on it');
      reached.resolve();
      await new Promise((_, reject) =>
        request.signal.addEventListener('abort', () => reject(new ChatModelError('aborted', 'The chat model request was aborted.')), { once: true }),
      );
    }
    const controller = new AbortController();
    const { model, requests } = scriptedModel(hangs);
    const { run } = harness(model, { signal: controller.signal });
    const result = run();
    await reached.promise;
    controller.abort(new Error('The run was cancelled.'));
    await expect(result).rejects.toThrow('The run was cancelled.');
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('rejects promptly even when the model ignores the abort', async () => {
    const reached = deferred();
    async function* ignoresAbort(): AsyncIterable<ChatStreamPart> {
      yield delta('x');
      reached.resolve();
      await new Promise(() => undefined);
    }
    const controller = new AbortController();
    const result = harness(scriptedModel(ignoresAbort).model, { signal: controller.signal }).run();
    await reached.promise;
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('aborts the running tool call and rejects', async () => {
    const started = deferred<AbortSignal>();
    const controller = new AbortController();
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', evaluate('1'))), say('never'));
    const { run, executeTool, events } = harness(model, { signal: controller.signal });
    executeTool.mockImplementation((_call, signal) => {
      started.resolve(signal);
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('tool stopped')), { once: true }));
    });
    const result = run();
    const toolSignal = await started.promise;
    controller.abort(new Error('The run was cancelled.'));
    await expect(result).rejects.toThrow('The run was cancelled.');
    expect(toolSignal.aborted).toBe(true);
    expect(requests).toHaveLength(1);
    expect(events.some((e) => e.type === 'TOOL_CALL_RESULT')).toBe(false);
  });

  it('rejects promptly even when the tool ignores the abort', async () => {
    const started = deferred();
    const controller = new AbortController();
    const { run, executeTool } = harness(scriptedModel(callTools(toolCall('c1', 'calculator', evaluate('1')))).model, { signal: controller.signal });
    executeTool.mockImplementation(() => {
      started.resolve();
      return new Promise(() => undefined);
    });
    const result = run();
    await started.promise;
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { model, requests } = scriptedModel(say('never'));
    await expect(harness(model, { signal: AbortSignal.abort() }).run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
  });
});

// ---- redaction and withholding ----

const base62 = 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const githubToken = `ghp_${base62}`;

describe('runConversation: redaction and withholding', () => {
  it('redacts a secret split across three text deltas in frames, finalResponse and stored history', async () => {
    const { model } = scriptedModel(say('Your token is gh', `p_${base62.slice(0, 20)}`, `${base62.slice(20)} — keep it safe.`));
    const { run, events } = harness(model);
    const outcome = await run();
    const deltas = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [e.delta] : []));
    expect(deltas.join('')).toBe('Your token is [REDACTED] — keep it safe.');
    for (const piece of [base62.slice(0, 8), base62.slice(20, 28)]) expect(JSON.stringify(events)).not.toContain(piece);
    expect(outcome.finalResponse).toBe('Your token is [REDACTED] — keep it safe.');
    expect(JSON.stringify(outcome.newMessages)).not.toContain(base62.slice(0, 8));
    await expectValidStream(events);
  });

  it('redacts tool arguments and output in frames and history but executes with the raw parameters', async () => {
    const args = { operation: 'evaluate', parameters: { expression: '1', password: 'hunter2-very-secret', note: `use ${githubToken}` } };
    const { model, requests } = scriptedModel(callTools(toolCall('c1', 'calculator', args)), say('ok'));
    const { run, events, executeTool } = harness(model, { userMessages: [`my token ${githubToken}`] });
    executeTool.mockResolvedValue({ status: 'succeeded', output: `echo ${githubToken}` });
    const outcome = await run();
    expect(executeTool.mock.calls[0]![0].parameters).toEqual(args.parameters);
    const argsFrame = events.find((e) => e.type === 'TOOL_CALL_ARGS');
    expect(argsFrame?.type === 'TOOL_CALL_ARGS' && JSON.parse(argsFrame.delta)).toEqual({
      operation: 'evaluate',
      parameters: { expression: '1', password: '[REDACTED]', note: 'use [REDACTED]' },
    });
    expect(events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'echo [REDACTED]' });
    expect(requests[1]!.messages.at(-1)).toMatchObject({ content: 'echo [REDACTED]' });
    expect(JSON.stringify(outcome.newMessages)).not.toContain('hunter2');
    expect(JSON.stringify(outcome.newMessages)).not.toContain(base62);
    expect(outcome.newMessages[0]).toEqual({ role: 'user', content: 'my token [REDACTED]' });
  });

  it('redacts unparseable arguments as text', async () => {
    const { model } = scriptedModel(callTools(toolCall('c1', 'calculator', `{"operation": "evaluate", ${githubToken}`)), say('ok'));
    const { run, events } = harness(model);
    await run();
    expect(events.find((e) => e.type === 'TOOL_CALL_ARGS')).toEqual({
      type: 'TOOL_CALL_ARGS',
      toolCallId: 'c1',
      delta: '{"operation": "evaluate", [REDACTED]',
    });
  });

  it('withholds arguments and results above the frame ceiling with withheld: true, and only then', async () => {
    const big = 'é'.repeat(40); // 40 characters, 80 UTF-8 bytes
    const bigArgs = evaluate(big);
    const smallArgs = evaluate('1');
    const { model, requests } = scriptedModel(callTools(toolCall('big', 'calculator', bigArgs), toolCall('small', 'calculator', smallArgs)), say('ok'));
    const { run, events, executeTool } = harness(model, { limits: { frameCeilingBytes: 64 } });
    executeTool.mockImplementation((call) => Promise.resolve({ status: 'succeeded', output: call.toolCallId === 'big' ? big : 'x'.repeat(64) }));
    await run();
    const frame = (type: AgentEvent['type'], id: string) => events.find((e) => e.type === type && 'toolCallId' in e && e.toolCallId === id);
    expect(frame('TOOL_CALL_ARGS', 'big')).toEqual({ type: 'TOOL_CALL_ARGS', toolCallId: 'big', delta: '{}', withheld: true });
    expect(frame('TOOL_CALL_RESULT', 'big')).toEqual({ type: 'TOOL_CALL_RESULT', toolCallId: 'big', messageId: 'id-1', content: '', role: 'tool', withheld: true });
    // Exactly at the ceiling is allowed (limits are inclusive); no `withheld` key at all.
    expect(frame('TOOL_CALL_ARGS', 'small')).toEqual({ type: 'TOOL_CALL_ARGS', toolCallId: 'small', delta: JSON.stringify(smallArgs) });
    expect(frame('TOOL_CALL_RESULT', 'small')).toEqual({ type: 'TOOL_CALL_RESULT', toolCallId: 'small', messageId: 'id-2', content: 'x'.repeat(64), role: 'tool' });
    // The model still sees everything; withholding is a stream matter.
    expect(requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([big, 'x'.repeat(64)]);
    await expectValidStream(events);
  });

  it('hands the model a notice instead of a tool result over maxToolResultBytes, and says the same on the stream', async () => {
    const { model, requests } = scriptedModel(callTools(toolCall('big', 'calculator', evaluate('1')), toolCall('fits', 'calculator', evaluate('2'))), say('ok'));
    const { run, events, executeTool } = harness(model, { limits: { maxToolResultBytes: 16 } });
    executeTool.mockImplementation((call) => Promise.resolve({ status: 'succeeded', output: call.toolCallId === 'big' ? 'é'.repeat(9) : 'é'.repeat(8) }));
    const outcome = await run();
    const notice = 'The tool call succeeded, but its result was larger than the 16 bytes passed to the model, so it was not passed on.';
    expect(requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([notice, 'é'.repeat(8)]);
    const result = events.find((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 'big');
    expect(result).toMatchObject({ content: notice });
    expect(outcome.conversationSucceeded).toBe(true);
  });

  it('never withholds text deltas', async () => {
    const long = 'word '.repeat(100);
    const { model } = scriptedModel(say(long));
    const { run, events } = harness(model, { limits: { frameCeilingBytes: 8 } });
    await run();
    const text = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [e.delta] : [])).join('');
    expect(text).toBe(long);
    expect(events.some((e) => 'withheld' in e)).toBe(false);
  });
});

describe('a conversation that waits for a person (DESIGN.md §13)', () => {
  it('stops at the call that waits, after the calls before it ran; resumed, makes it again without re-announcing it and goes on through later turns', async () => {
    const first = scriptedModel(callTools(toolCall('a', 'calculator', evaluate('1+1')), toolCall('b', 'calculator', evaluate('2+2'))));
    const parkedRun = harness(first.model, { userMessages: ['add twice', 'thanks'] });
    parkedRun.executeTool.mockImplementation((call) => Promise.resolve(call.toolCallId === 'b' ? { status: 'awaiting-approval', approvalId: 'ap-1' } : { status: 'succeeded', output: '2' }));
    const parked = await parkedRun.run();
    expect(parked.parked).toMatchObject({ turnCount: 1, toolInvocations: 2, usage: { inputTokens: 10, outputTokens: 5 }, step: { turnIndex: 0, modelCalls: 1, waiting: 1, approvalId: 'ap-1' } });
    // The result of the call that ran is in the checkpoint; the waiting call has none yet.
    expect(parked.parked?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(parkedRun.events.filter((e) => e.type === 'TOOL_CALL_RESULT').map((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId)).toEqual(['a']);
    expect(parkedRun.events.at(-1)).toEqual({ type: 'TOOL_CALL_END', toolCallId: 'b' });

    const second = scriptedModel(say('Both are done.'), say('You are welcome.'));
    const resumed = harness(second.model, { userMessages: ['add twice', 'thanks'], resume: parked.parked! });
    resumed.executeTool.mockImplementation(() => Promise.resolve({ status: 'denied', rejected: true }));
    const outcome = await resumed.run();
    expect(resumed.executeTool).toHaveBeenCalledTimes(1);
    expect(resumed.executeTool.mock.calls[0]![0]).toMatchObject({ toolCallId: 'b', name: 'calculator' });
    // No second START/ARGS/END for the waiting call: its result comes first.
    expect(resumed.events[0]).toMatchObject({ type: 'TOOL_CALL_RESULT', toolCallId: 'b', content: 'Tool call rejected by an approver.' });
    expect(resumed.events.some((e) => e.type === 'TOOL_CALL_START')).toBe(false);
    // The model is sent the transcript with the rejection, then the next turn follows.
    expect(second.requests[0]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'b', content: 'Tool call rejected by an approver.' });
    expect(outcome).toMatchObject({ conversationSucceeded: true, finalResponse: 'You are welcome.', turnCount: 2, totalToolInvocations: 2, usage: { inputTokens: 30, outputTokens: 15 } });
    expect(outcome.parked).toBeUndefined();
    expect(outcome.newMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'assistant']);
  });
});
