import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import type { ChatModelConfig } from '../platform/config/index.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer } from '../../test/helpers/fake-openai-server.js';
import { ChatModelError, type ChatMessage, type ChatModel, type ChatRequest, type ChatStreamPart } from './chat-model.js';
import { createChatModel, type ChatModelDeps } from './create-chat-model.js';
import { chatModelConfig } from '../../test/helpers/chat-model-config.js';

const KEY = 'sk-test-0123456789abcdefSECRET';

let fake: FakeOpenAIServer;
let logged: { level: string; o: object; m: string }[];
let delays: number[];

beforeEach(async () => {
  fake = await startFakeOpenAIServer();
  logged = [];
  delays = [];
});
afterEach(async () => {
  await fake.close();
});

function deps(extra: Partial<ChatModelDeps> = {}): ChatModelDeps {
  return {
    log: {
      warn: (o, m) => void logged.push({ level: 'warn', o, m }),
      info: (o, m) => void logged.push({ level: 'info', o, m }),
      debug: (o, m) => void logged.push({ level: 'debug', o, m }),
    },
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    ...extra,
  };
}

function model(overrides: Partial<ChatModelConfig> = {}, extra: Partial<ChatModelDeps> = {}): ChatModel {
  const config = chatModelConfig({ endpoint: `${fake.url}/v1`, apiKey: KEY, ...overrides });
  return createChatModel(config, deps(extra))!;
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { messages: [{ role: 'user', content: 'Hello' }], tools: [], signal: new AbortController().signal, ...overrides };
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function failure(stream: AsyncIterable<ChatStreamPart>): Promise<ChatModelError> {
  try {
    await collect(stream);
  } catch (error) {
    expect(error).toBeInstanceOf(ChatModelError);
    return error as ChatModelError;
  }
  throw new Error('expected the stream to fail');
}

describe('OpenAI provider', () => {
  it('relays text deltas in order while the upstream is still streaming', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ type: 'stream', steps: [{ text: 'Hel' }, { until: gate }, { text: 'lo' }, { text: ' world' }] });
    const seen: string[] = [];
    let upstreamOpenAtFirstDelta: boolean | undefined;
    for await (const part of model().stream(request())) {
      if (part.type !== 'text-delta') continue;
      if (seen.length === 0) {
        const upstream = fake.requests[0]!;
        upstreamOpenAtFirstDelta = upstream.state === 'open' && !upstream.sent.some((frame) => frame.includes('world'));
        release();
      }
      seen.push(part.delta);
    }
    expect(upstreamOpenAtFirstDelta).toBe(true);
    expect(seen).toEqual(['Hel', 'lo', ' world']);
  });

  it('ends with exactly one finish carrying the mapped usage', async () => {
    fake.enqueue({ ...openAIText('Hi'), usage: { promptTokens: 42, completionTokens: 7 } } as never);
    const parts = await collect(model().stream(request()));
    expect(parts.filter((p) => p.type === 'finish')).toEqual([{ type: 'finish', finishReason: 'stop', usage: { inputTokens: 42, outputTokens: 7 } }]);
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('reports zero usage when the server sends none', async () => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'Hi' }], usage: null });
    const parts = await collect(model().stream(request()));
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it('emits each tool call once, complete, with its fragmented arguments joined', async () => {
    fake.enqueue({
      type: 'stream',
      steps: [
        { toolCall: { id: 'call_a', name: 'calculator', argumentChunks: ['{"oper', 'ation":"evaluate",', '"parameters":{"expression":"2+2"}}'] } },
        { toolCall: { id: 'call_b', name: 'mcp__everything__get-sum', argumentChunks: ['{"operation":"call",', '"parameters":{}}'] } },
      ],
    });
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      {
        type: 'tool-call',
        call: { id: 'call_a', name: 'calculator', arguments: '{"operation":"evaluate","parameters":{"expression":"2+2"}}' },
      },
      { type: 'tool-call', call: { id: 'call_b', name: 'mcp__everything__get-sum', arguments: '{"operation":"call","parameters":{}}' } },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['tool_calls', 'tool-calls'],
    ['something_new', 'other'],
  ])('maps finish_reason %s to %s', async (upstream, ours) => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'x' }], finishReason: upstream });
    const parts = await collect(model().stream(request()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: ours });
  });

  it('reports tool-calls when a server says stop after emitting tool calls', async () => {
    fake.enqueue({ type: 'stream', steps: [{ toolCall: { name: 'clock', argumentChunks: ['{"operation":"now","parameters":{}}'] } }], finishReason: 'stop' });
    const parts = await collect(model().stream(request()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
  });

  it('sends the history, the tools and the generation settings as chat completions', async () => {
    fake.enqueue(openAIText('ok'));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: 'Let me compute.',
        toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"operation":"evaluate","parameters":{"expression":"2+2"}}' }],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'calculator', content: '{"result":4}' },
      { role: 'user', content: 'Thanks' },
    ];
    const parameters = { type: 'object', properties: { operation: { enum: ['evaluate'] }, parameters: { type: 'object' } }, required: ['operation'] };
    await collect(
      model({ temperature: 0.2 }).stream(
        request({ messages, tools: [{ name: 'calculator', description: 'Evaluates arithmetic.', parameters }], maxOutputTokens: 99 }),
      ),
    );
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 99,
      temperature: 0.2,
      tool_choice: 'auto',
      tools: [{ type: 'function', function: { name: 'calculator', description: 'Evaluates arithmetic.', parameters } }],
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'What is 2+2?' },
        {
          role: 'assistant',
          content: 'Let me compute.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"operation":"evaluate","parameters":{"expression":"2+2"}}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"result":4}' },
        { role: 'user', content: 'Thanks' },
      ],
    });
  });

  it('uses the configured MaxOutputTokens and no temperature unless one is set', async () => {
    fake.enqueue(openAIText('ok'));
    await collect(model().stream(request()));
    expect(fake.requests[0]!.body.max_tokens).toBe(256);
    expect(fake.requests[0]!.body).not.toHaveProperty('temperature');
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
  });

  it('serves a bare-origin endpoint under /v1 and sends no Authorization header without a key', async () => {
    fake.enqueue(openAIText('ok'));
    await collect(model({ endpoint: fake.url, apiKey: null }).stream(request()));
    expect(fake.requests[0]!.path).toBe('/v1/chat/completions');
    expect(fake.requests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('times out a hung upstream and closes the connection', async () => {
    fake.enqueue({ type: 'hang' });
    const error = await failure(model({ timeoutSeconds: 0.2 }).stream(request()));
    expect(error).toMatchObject({ code: 'timeout', message: 'The chat model timed out.' });
    await fake.waitForAbort();
    expect(fake.requests).toHaveLength(1);
  });

  it('counts the timeout over the whole stream, not just the response headers', async () => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'partial' }, { hang: true }] });
    const parts: ChatStreamPart[] = [];
    const error = await (async () => {
      try {
        for await (const part of model({ timeoutSeconds: 0.3 }).stream(request())) parts.push(part);
      } catch (e) {
        return e as ChatModelError;
      }
      throw new Error('expected a timeout');
    })();
    expect(parts).toEqual([{ type: 'text-delta', delta: 'partial' }]);
    expect(error.code).toBe('timeout');
    await fake.waitForAbort();
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
    expect(error).toMatchObject({ code: 'aborted', message: 'The chat model request was cancelled.' });
    await fake.waitForAbort();
    expect(fake.requests[0]!.state).toBe('aborted');
  });

  it('a consumer that stops reading early closes the upstream connection', async () => {
    fake.enqueue({ type: 'stream', steps: [{ text: 'first' }, { hang: true }] });
    for await (const part of model().stream(request())) if (part.type === 'text-delta') break;
    await fake.waitForAbort();
  });

  it('does not call the upstream when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(model().stream(request({ signal: controller.signal })));
    expect(error.code).toBe('aborted');
    expect(fake.requests).toHaveLength(0);
  });

  it('retries a 429 after the Retry-After seconds, then succeeds', async () => {
    fake.enqueue({ type: 'error', status: 429, headers: { 'retry-after': '7' } }, openAIText('ok'));
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'ok' });
    expect(delays).toEqual([7000]);
    expect(fake.requests).toHaveLength(2);
    expect(logged.filter((e) => e.level === 'warn')).toEqual([
      { level: 'warn', o: expect.objectContaining({ status: 429, code: 'rate-limited', attempt: 1, delayMs: 7000 }), m: 'Chat model call failed; retrying.' },
    ]);
  });

  it('honours retry-after-ms and an HTTP-date Retry-After, capped at 30 seconds', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    fake.enqueue(
      { type: 'error', status: 429, headers: { 'retry-after-ms': '1250' } },
      { type: 'error', status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' } },
      { type: 'error', status: 429, headers: { 'retry-after': '3600' } },
      openAIText('ok'),
    );
    await collect(model({}, { clock }).stream(request()));
    expect(delays).toEqual([1250, 4000, 30_000]);
  });

  it('times out while waiting to retry, without sending another request', async () => {
    fake.respondWith(() => ({ type: 'error', status: 429, headers: { 'retry-after': '30' } }));
    const error = await failure(model({ timeoutSeconds: 0.2 }, { sleep: undefined }).stream(request()));
    expect(error.code).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after three retries of a 5xx with growing backoff', async () => {
    fake.respondWith(() => ({ type: 'error', status: 502 }));
    const error = await failure(model().stream(request()));
    expect(error).toMatchObject({ code: 'unavailable', message: 'The chat model is unavailable.' });
    expect(fake.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(250);
    expect(delays[0]).toBeLessThanOrEqual(500);
    expect(delays[2]).toBeGreaterThanOrEqual(1000);
    expect(delays[2]).toBeLessThanOrEqual(2000);
  });

  it('retries an error chunk that arrives before any output', async () => {
    fake.enqueue({ type: 'stream', steps: [{ data: { error: { message: 'overloaded', type: 'server_error', code: null } } }] }, openAIText('ok'));
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'ok' });
    expect(fake.requests).toHaveLength(2);
  });

  it('never retries once a part has been yielded', async () => {
    fake.respondWith(() => ({ type: 'stream', steps: [{ text: 'half' }, { delayMs: 50 }, { disconnect: true }] }));
    const parts: ChatStreamPart[] = [];
    const error = await (async () => {
      try {
        for await (const part of model().stream(request())) parts.push(part);
      } catch (e) {
        return e as ChatModelError;
      }
      throw new Error('expected a failure');
    })();
    expect(parts).toEqual([{ type: 'text-delta', delta: 'half' }]);
    expect(error.code).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('fails on an error chunk after output without retrying', async () => {
    fake.respondWith(() => ({ type: 'stream', steps: [{ text: 'half' }, { data: { error: { message: 'boom', type: 'server_error' } } }] }));
    const error = await failure(model().stream(request()));
    expect(error.code).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a chunk that is not JSON as an invalid response, without retrying', async () => {
    fake.respondWith(() => ({ type: 'stream', steps: [{ data: '{"choices": [' }, { text: 'never' }] }));
    const error = await failure(model().stream(request()));
    expect(error).toMatchObject({ code: 'invalid-response', message: 'The chat model sent an invalid response.' });
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    [400, 'bad-request', 'The chat model rejected the request.'],
    [401, 'authentication', 'The chat model rejected the credentials.'],
    [403, 'authentication', 'The chat model rejected the credentials.'],
    [404, 'bad-request', 'The chat model rejected the request.'],
  ])('does not retry a %i', async (status, code, message) => {
    fake.respondWith(() => ({ type: 'error', status }));
    const error = await failure(model().stream(request()));
    expect(error).toMatchObject({ code, message });
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries an unreachable endpoint, then reports it could not be reached', async () => {
    const closed = await startFakeOpenAIServer();
    const url = closed.url;
    await closed.close();
    const error = await failure(model({ endpoint: `${url}/v1` }).stream(request()));
    expect(error).toMatchObject({ code: 'unavailable', message: 'The chat model could not be reached.' });
    expect(delays).toHaveLength(3);
    expect(logged.at(-1)?.o).toMatchObject({ networkCode: 'ECONNREFUSED', attempts: 4 });
  });

  it('keeps the API key and the upstream body out of errors and logs', async () => {
    fake.respondWith((_body, req) => ({
      type: 'error',
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}. UPSTREAM-DETAIL`, type: 'invalid_request_error' } },
    }));
    const error = await failure(model().stream(request()));
    const surfaces = [error.message, String(error), JSON.stringify(error), JSON.stringify(error.cause), JSON.stringify(logged), error.stack ?? ''];
    for (const surface of surfaces) {
      expect(surface).not.toContain(KEY);
      expect(surface).not.toContain('UPSTREAM-DETAIL');
    }
    expect(logged.at(-1)).toMatchObject({ level: 'warn', o: { provider: 'OpenAI', status: 401, code: 'authentication' }, m: 'Chat model call failed.' });
  });
});
