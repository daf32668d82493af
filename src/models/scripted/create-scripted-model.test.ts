import { describe, expect, it } from 'vitest';
import { ChatModelError, type ChatMessage, type ChatStreamPart } from '../chat-model.js';
import { createScriptedModel } from './create-scripted-model.js';

function request(messages: ChatMessage[], signal = new AbortController().signal) {
  return { messages, tools: [], signal };
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function text(parts: ChatStreamPart[]): string {
  return parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
}

describe('Scripted model (built-in script)', () => {
  it('echoes the last user message in several word-sized deltas', async () => {
    const parts = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'hello there  world' }])));
    const deltas = parts.filter((p) => p.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(text(parts)).toBe('You said: hello there  world');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('reports usage as characters / 4 rounded up, input over all messages', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be nice.' },
      { role: 'user', content: 'hi' },
    ];
    const parts = await collect(createScriptedModel({}).stream(request(messages)));
    // input: 8 + 2 = 10 chars → 3 tokens; output: "You said: hi" = 12 chars → 3 tokens
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 3 } });
  });

  it('turns `call <tool> <operation> <json>` into one tool call with {operation, parameters}', async () => {
    const parts = await collect(
      createScriptedModel({}).stream(request([{ role: 'user', content: 'call calculator evaluate {"expression": "2+2"}' }])),
    );
    const args = '{"operation":"evaluate","parameters":{"expression":"2+2"}}';
    expect(parts).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'calculator', arguments: args } },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 12, outputTokens: Math.ceil(args.length / 4) } },
    ]);
  });

  it('accepts `call` without parameters as an empty object', async () => {
    const parts = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'call clock now' }])));
    expect(parts[0]).toEqual({ type: 'tool-call', call: { id: 'call_1', name: 'clock', arguments: '{"operation":"now","parameters":{}}' } });
  });

  it.each(['call calculator evaluate {oops', 'call calculator evaluate [1, 2]'])('explains instead of calling when parameters are not a JSON object: %s', async (message) => {
    const parts = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: message }])));
    expect(parts.some((p) => p.type === 'tool-call')).toBe(false);
    expect(text(parts)).toContain('must be a JSON object');
    expect(parts.at(-1)).toMatchObject({ finishReason: 'stop' });
  });

  it('summarises the tool results when called back after tools ran, without calling tools again', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'call calculator evaluate {"expression":"2+2"}' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"operation":"evaluate","parameters":{"expression":"2+2"}}' }] },
      { role: 'tool', toolCallId: 'call_1', toolName: 'calculator', content: '{"result":4}' },
    ];
    const parts = await collect(createScriptedModel({}).stream(request(messages)));
    expect(text(parts)).toBe('Tool results:\n- calculator: {"result":4}');
    expect(parts.some((p) => p.type === 'tool-call')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ finishReason: 'stop' });
  });

  it('numbers tool-call ids after those already in the conversation and is deterministic', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'call clock now' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'clock', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'call_1', toolName: 'clock', content: 'noon' },
      { role: 'assistant', content: 'Tool results: …' },
      { role: 'user', content: 'call clock now' },
    ];
    const model = createScriptedModel({});
    const first = await collect(model.stream(request(messages)));
    const second = await collect(model.stream(request(messages)));
    expect(first[0]).toMatchObject({ type: 'tool-call', call: { id: 'call_2' } });
    expect(second).toEqual(first);
  });

  it("answers the example agents' demo questions: a time question asks the clock, a ticket gets a severity", async () => {
    const time = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'What time is it in Tokyo?' }])));
    expect(text(time)).toBe('Reading the clock in Asia/Tokyo.');
    expect(time.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'clock', arguments: '{"operation":"now","parameters":{"timeZone":"Asia/Tokyo"}}' } },
    ]);
    const ticket = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'Checkout is down for all our customers.' }])));
    expect(text(ticket)).toMatch(/^Severity: S1 /);
    // Only the whole demo question matches: a look-alike is still echoed.
    const other = await collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'what time is it?' }])));
    expect(text(other)).toBe('You said: what time is it?');
  });

  it('stops with an aborted ChatModelError when the signal fires', async () => {
    const controller = new AbortController();
    const stream = createScriptedModel({}).stream(request([{ role: 'user', content: 'one two three four' }], controller.signal));
    await expect(
      (async () => {
        for await (const _part of stream) controller.abort();
      })(),
    ).rejects.toMatchObject({ code: 'aborted' });
    await expect(collect(createScriptedModel({}).stream(request([{ role: 'user', content: 'x' }], controller.signal)))).rejects.toBeInstanceOf(
      ChatModelError,
    );
  });
});

describe('Scripted model (rules)', () => {
  const model = createScriptedModel({
    modelId: 'demo',
    rules: [
      { when: /weather/i, reply: 'Let me look.', toolCalls: [{ tool: 'http_fetch', operation: 'get', parameters: { url: 'https://wx.example/today' } }] },
      { when: /weather|hello/i, reply: 'never reached for weather' },
      { when: /^hello/i, reply: 'Hi! I am a script.' },
    ],
  });

  it('answers with the first rule whose pattern matches the last user message', async () => {
    const parts = await collect(model.stream(request([{ role: 'user', content: 'What is the weather?' }])));
    expect(text(parts)).toBe('Let me look.');
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'http_fetch', arguments: '{"operation":"get","parameters":{"url":"https://wx.example/today"}}' } },
    ]);
    expect(parts.at(-1)).toMatchObject({ finishReason: 'tool-calls' });
    expect(model.modelId).toBe('demo');
  });

  it('matches on the last user message, not earlier ones', async () => {
    const parts = await collect(
      model.stream(
        request([
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: 'Sunny.' },
          { role: 'user', content: 'hello again' },
        ]),
      ),
    );
    expect(text(parts)).toBe('never reached for weather');
  });

  it("lets a configured rule win over the example agents' built-in ones", async () => {
    const scripted = createScriptedModel({ rules: [{ when: /tokyo/i, reply: 'configured' }] });
    const parts = await collect(scripted.stream(request([{ role: 'user', content: 'What time is it in Tokyo?' }])));
    expect(text(parts)).toBe('configured');
  });

  it('falls back to the built-in script when no rule matches', async () => {
    const parts = await collect(model.stream(request([{ role: 'user', content: 'something else' }])));
    expect(text(parts)).toBe('You said: something else');
  });
});
