import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatModelConfig } from '../platform/config/index.js';
import { anthropicText, startFakeAnthropicServer, type FakeAnthropicServer } from '../../test/helpers/fake-anthropic-server.js';
import { ChatModelError, type ChatMessage, type ChatModel, type ChatRequest, type ChatStreamPart } from './chat-model.js';
import { createChatModel, type ChatModelDeps } from './create-chat-model.js';
import { chatModelConfig } from '../../test/helpers/chat-model-config.js';

const KEY = 'sk-ant-0123456789SECRET';

let fake: FakeAnthropicServer;
let logged: { o: object; m: string }[];
let delays: number[];

beforeEach(async () => {
  fake = await startFakeAnthropicServer();
  logged = [];
  delays = [];
});
afterEach(async () => {
  await fake.close();
});

function model(overrides: Partial<ChatModelConfig> = {}, extra: Partial<ChatModelDeps> = {}): ChatModel {
  const log = (o: object, m: string): void => void logged.push({ o, m });
  const config = chatModelConfig({ provider: 'Anthropic', endpoint: `${fake.url}/v1`, apiKey: KEY, model: 'claude-sonnet-4-5', maxOutputTokens: 512, ...overrides });
  const sleep = (ms: number): Promise<void> => {
    delays.push(ms);
    return Promise.resolve();
  };
  return createChatModel(config, { log: { warn: log, info: log, debug: log }, sleep, ...extra })!;
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { messages: [{ role: 'user', content: 'Hello' }], tools: [], signal: new AbortController().signal, ...overrides };
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function failure(stream: AsyncIterable<ChatStreamPart>, parts: ChatStreamPart[] = []): Promise<ChatModelError> {
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    expect(error).toBeInstanceOf(ChatModelError);
    return error as ChatModelError;
  }
  throw new Error('expected the stream to fail');
}

describe('Anthropic provider', () => {
  it('relays text deltas in order while the upstream is still streaming', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ type: 'stream', steps: [{ text: 'Bon' }, { until: gate }, { text: 'jour' }, { text: '!' }] });
    const seen: string[] = [];
    let upstreamOpenAtFirstDelta: boolean | undefined;
    for await (const part of model().stream(request())) {
      if (part.type !== 'text-delta') continue;
      if (seen.length === 0) {
        const upstream = fake.requests[0]!;
        upstreamOpenAtFirstDelta = upstream.state === 'open' && !upstream.sent.some((frame) => frame.includes('message_stop'));
        release();
      }
      seen.push(part.delta);
    }
    expect(upstreamOpenAtFirstDelta).toBe(true);
    expect(seen).toEqual(['Bon', 'jour', '!']);
  });

  it('emits text then complete tool calls, and finishes with tool-calls and the usage', async () => {
    fake.enqueue({
      type: 'stream',
      steps: [
        { text: 'Checking.' },
        { toolCall: { id: 'toolu_1', name: 'calculator', argumentChunks: ['{"operation": "eval', 'uate", "parameters": {"expression"', ': "2+2"}}'] } },
        { toolCall: { id: 'toolu_2', name: 'clock', argumentChunks: [] } },
      ],
      usage: { inputTokens: 321, outputTokens: 54 },
    });
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'Checking.' },
      {
        type: 'tool-call',
        call: { id: 'toolu_1', name: 'calculator', arguments: '{"operation": "evaluate", "parameters": {"expression": "2+2"}}' },
      },
      { type: 'tool-call', call: { id: 'toolu_2', name: 'clock', arguments: '{}' } },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 321, outputTokens: 54 } },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['refusal', 'content-filter'],
  ])('maps stop_reason %s to %s', async (upstream, ours) => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'x' }], stopReason: upstream });
    const parts = await collect(model().stream(request()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: ours });
  });

  it('sends the system prompt, tool uses, tool results and tools as the Messages API expects', async () => {
    fake.enqueue(anthropicText('ok'));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Add and tell the time.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'toolu_a', name: 'calculator', arguments: '{"operation":"evaluate","parameters":{"expression":"1+1"}}' },
          { id: 'toolu_b', name: 'clock', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_a', toolName: 'calculator', content: '{"result":2}' },
      { role: 'tool', toolCallId: 'toolu_b', toolName: 'clock', content: '12:00' },
    ];
    const parameters = { type: 'object', properties: { operation: { type: 'string' } } };
    await collect(model({ temperature: 0.5 }).stream(request({ messages, tools: [{ name: 'calculator', description: 'Arithmetic.', parameters }] })));
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      max_tokens: 512,
      temperature: 0.5,
      system: [{ type: 'text', text: 'You are terse.' }],
      tools: [{ name: 'calculator', description: 'Arithmetic.', input_schema: parameters }],
      tool_choice: { type: 'auto' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Add and tell the time.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'calculator', input: { operation: 'evaluate', parameters: { expression: '1+1' } } },
            { type: 'tool_use', id: 'toolu_b', name: 'clock', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"result":2}' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: '12:00' },
          ],
        },
      ],
    });
  });

  it('retries an overloaded 529 then succeeds', async () => {
    fake.enqueue({ type: 'error', status: 529, headers: { 'retry-after': '2' } }, anthropicText('ok'));
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'ok' });
    expect(delays).toEqual([2000]);
  });

  it('retries an overloaded error event that arrives before any output', async () => {
    fake.enqueue(
      { type: 'stream', steps: [{ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }] },
      anthropicText('ok'),
    );
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'ok' });
    expect(fake.requests).toHaveLength(2);
  });

  it('fails without retrying on an error event after output', async () => {
    fake.respondWith(() => ({
      type: 'stream',
      steps: [{ text: 'Half' }, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }],
    }));
    const parts: ChatStreamPart[] = [];
    const error = await failure(model().stream(request()), parts);
    expect(parts).toEqual([{ type: 'text-delta', delta: 'Half' }]);
    expect(error).toMatchObject({ code: 'unavailable', message: 'The chat model is unavailable.' });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry a 401 and keeps the echoed key out of errors and logs', async () => {
    fake.respondWith((_body, req) => ({
      type: 'error',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${String(req.headers['x-api-key'])}` } },
    }));
    const error = await failure(model().stream(request()));
    expect(error).toMatchObject({ code: 'authentication', message: 'The chat model rejected the credentials.' });
    expect(fake.requests).toHaveLength(1);
    for (const surface of [error.message, JSON.stringify(error), JSON.stringify(error.cause), JSON.stringify(logged)]) {
      expect(surface).not.toContain(KEY);
      expect(surface).not.toContain('invalid x-api-key');
    }
  });

  it('aborting the request signal closes the upstream connection', async () => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'first' }, { hang: true }] });
    const controller = new AbortController();
    const stream = model().stream(request({ signal: controller.signal }));
    const error = await (async () => {
      try {
        for await (const part of stream) if (part.type === 'text-delta') controller.abort();
      } catch (e) {
        return e as ChatModelError;
      }
      throw new Error('expected an abort');
    })();
    expect(error.code).toBe('aborted');
    await fake.waitForAbort();
  });

  it('times out a hung upstream', async () => {
    fake.enqueue({ type: 'hang' });
    const error = await failure(model({ timeoutSeconds: 0.2 }).stream(request()));
    expect(error.code).toBe('timeout');
    await fake.waitForAbort();
  });

  it('gives a bare-origin Endpoint the /v1 base path', async () => {
    fake.enqueue(anthropicText('ok'));
    await collect(model({ endpoint: fake.url }).stream(request()));
    expect(fake.requests[0]!.path).toBe('/v1/messages');
  });

  it('requires an API key and a model', () => {
    expect(() => model({ apiKey: null })).toThrow('AppConfig:AI:ChatModel:ApiKey is required for the Anthropic chat-model provider.');
    expect(() => model({ model: null })).toThrow('AppConfig:AI:ChatModel:Model is required');
  });
});
