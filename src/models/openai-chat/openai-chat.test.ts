// What the lean OpenAI-compatible stream (decision 0651) must do beyond the provider contract that
// src/models/openai-language-model.test.ts checks: the request shape the AI SDK gave reasoning models,
// refusals, chunk checks, a compressed or broken-off body, and the error-event status rules.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAIServer, openAIText, type FakeOpenAIServer } from '../../../test/helpers/fake-openai-server.js';
import { ManualClock } from '../../platform/clock/index.js';
import type { ChatModelConfig } from '../../platform/config/index.js';
import { ChatModelError, type ChatModel, type ChatRequest, type ChatStreamPart } from '../chat-model.js';
import { createOpenAIChatModel } from './create-openai-chat-model.js';
import { openAIModelFamily } from './openai-model-family.js';
import { streamErrorStatus } from './stream-error-status.js';
import { chatModelConfig } from '../../../test/helpers/chat-model-config.js';

let fake: FakeOpenAIServer;
let delays: number[];

beforeEach(async () => {
  fake = await startFakeOpenAIServer();
  delays = [];
});
afterEach(async () => {
  await fake.close();
});

function model(overrides: Partial<ChatModelConfig> = {}, endpoint = `${fake.url}/v1`, requestHeaders?: () => Record<string, string>): ChatModel {
  const config = chatModelConfig({ endpoint, ...overrides });
  const log = { warn: () => undefined, info: () => undefined };
  const sleep = (ms: number): Promise<void> => {
    delays.push(ms);
    return Promise.resolve();
  };
  return createOpenAIChatModel(config, { log, clock: new ManualClock(0), sleep, random: () => 0, ...(requestHeaders ? { requestHeaders } : {}) });
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], tools: [], signal: new AbortController().signal, ...overrides };
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function failure(stream: AsyncIterable<ChatStreamPart>): Promise<ChatModelError> {
  const error = await collect(stream).then(
    () => new Error('expected the stream to fail'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

/** A one-route server answering every request with `answer`. */
async function rawServer(answer: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

const chunk = (delta: object, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

describe('the lean OpenAI-compatible stream', () => {
  it('sends a reasoning model system text as developer, max_completion_tokens and no temperature', async () => {
    fake.enqueue(openAIText('ok'));
    await collect(model({ model: 'o3-mini', temperature: 0.3 }).stream(request()));
    const body = fake.requests[0]!.body;
    expect(body.messages[0]).toEqual({ role: 'developer', content: 'Be brief.' });
    expect(body.max_completion_tokens).toBe(256);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('knows the reasoning and search-preview families as the AI SDK did', () => {
    expect(openAIModelFamily('gpt-5')).toEqual({ reasoning: true, acceptsTemperature: false });
    expect(openAIModelFamily('gpt-5-chat-latest')).toEqual({ reasoning: false, acceptsTemperature: true });
    expect(openAIModelFamily('o1')).toEqual({ reasoning: true, acceptsTemperature: false });
    expect(openAIModelFamily('gpt-4o-search-preview')).toEqual({ reasoning: false, acceptsTemperature: false });
    expect(openAIModelFamily('llama3.1:8b')).toEqual({ reasoning: false, acceptsTemperature: true });
  });

  it('sends a tool call whose arguments are not a JSON object as {}', async () => {
    fake.enqueue(openAIText('ok'));
    const messages = [
      { role: 'user' as const, content: 'x' },
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'clock', arguments: '{"__proto__":{"x":1}}' }] },
      { role: 'tool' as const, toolCallId: 'c1', toolName: 'clock', content: '{}' },
    ];
    await collect(model().stream(request({ messages })));
    expect(fake.requests[0]!.body.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }] });
  });

  it('relays a refusal as text and finishes as a content filter', async () => {
    fake.enqueue({ type: 'stream', steps: [{ data: { id: 'c', choices: [{ index: 0, delta: { refusal: 'I cannot help.' }, finish_reason: null }] } }] });
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'I cannot help.' },
      { type: 'finish', finishReason: 'content-filter', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
  });

  it('reports JSON that is not a chunk as an invalid response, without retrying', async () => {
    fake.respondWith(() => ({ type: 'stream', steps: [{ data: { choices: 'nope' } }] }));
    const error = await failure(model().stream(request()));
    expect(error.code).toBe('invalid-response');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a connection that breaks off before any output', async () => {
    fake.enqueue({ type: 'stream', steps: [{ disconnect: true }] }, openAIText('second'));
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'second' });
    expect(fake.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('decodes a gzip-compressed event stream from a server that ignores accept-encoding: identity', async () => {
    let acceptEncoding: string | undefined;
    const { url, server } = await rawServer((req, res) => {
      acceptEncoding = req.headers['accept-encoding'];
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gzipSync(chunk({ content: 'zipped' }) + chunk({}, 'stop') + 'data: [DONE]\n\n'));
    });
    try {
      const parts = await collect(model({}, url).stream(request()));
      expect(acceptEncoding).toBe('identity');
      expect(parts).toEqual([
        { type: 'text-delta', delta: 'zipped' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } },
      ]);
    } finally {
      server.close();
    }
  });

  it('keeps multi-byte characters split across socket writes intact', async () => {
    const bytes = Buffer.from(chunk({ content: 'héllo 😀 wörld' }) + 'data: [DONE]\n\n');
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    const { url, server } = await rawServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(bytes.subarray(0, cut));
      setImmediate(() => res.end(bytes.subarray(cut)));
    });
    try {
      const parts = await collect(model({}, url).stream(request()));
      expect(parts[0]).toEqual({ type: 'text-delta', delta: 'héllo 😀 wörld' });
    } finally {
      server.close();
    }
  });

  it('adds the headers asked for per request (the trace context), never over its own', async () => {
    fake.enqueue(openAIText('one'), openAIText('two'));
    let n = 0;
    const traced = model({}, `${fake.url}/v1`, () => ({ traceparent: `00-${String(++n).padStart(32, '0')}-00f067aa0ba902b7-01`, authorization: 'Bearer stolen' }));
    await collect(traced.stream(request()));
    await collect(traced.stream(request()));
    expect(fake.requests.map((r) => r.headers.traceparent)).toEqual([`00-${'1'.padStart(32, '0')}-00f067aa0ba902b7-01`, `00-${'2'.padStart(32, '0')}-00f067aa0ba902b7-01`]);
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-test', 'Bearer sk-test']);
  });

  it('refuses a chunk with a prototype key, written plainly or escaped, as the SDK’s secure parse did', async () => {
    for (const key of ['"__proto__"', '"\\u005f_proto__"', '"constructor"']) {
      const value = key === '"constructor"' ? '{"prototype":{"x":1}}' : '{"x":1}';
      fake.respondWith(() => ({ type: 'stream', steps: [{ data: `{"choices":[{"index":0,"delta":{"content":"hi"}}],${key}:${value}}` }] }));
      const error = await failure(model().stream(request()));
      expect(error.code).toBe('invalid-response');
    }
    fake.respondWith(() => ({ type: 'stream', steps: [{ data: '{"choices":[{"index":0,"delta":{"content":"a constructor, \\u00e9"}}]}' }, { data: '[DONE]' }] }));
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'text-delta', delta: 'a constructor, é' });
  });

  it('sends Host, the endpoint path, one value per header whatever its case, and the body length', async () => {
    let seen: { url?: string; raw: string[]; body: string } = { raw: [], body: '' };
    const { url, server } = await rawServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (text: string) => (body += text));
      req.on('end', () => {
        seen = { url: req.url, raw: req.rawHeaders, body };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chunk({ content: 'ok' }) + 'data: [DONE]\n\n');
      });
    });
    try {
      const traced = model({}, url, () => ({ Authorization: 'Bearer stolen', 'X-Trace': 'a' }));
      await collect(traced.stream(request()));
      const names = seen.raw.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
      const header = (name: string) => seen.raw.filter((_, index) => index % 2 === 1 && seen.raw[index - 1]!.toLowerCase() === name);
      expect(seen.url).toBe('/v1/chat/completions');
      expect(header('host')).toEqual([new URL(url).host]);
      expect(header('authorization')).toEqual(['Bearer sk-test']);
      expect(header('x-trace')).toEqual(['a']);
      expect(header('content-length')).toEqual([String(Buffer.byteLength(seen.body))]);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      server.close();
    }
  });

  it('does not follow a redirect', async () => {
    const { url, server } = await rawServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${fake.url}/v1/chat/completions` }).end();
    });
    try {
      const error = await failure(model({}, url).stream(request()));
      expect(error.code).toBe('bad-request');
      expect(fake.requests).toHaveLength(0);
    } finally {
      server.close();
    }
  });
});

describe('the status an error event before any output stands for', () => {
  it.each([
    [{ message: 'm', type: 'x', code: 429 }, 429],
    [{ message: 'm', type: 'x', code: '503' }, 503],
    [{ message: 'm', type: 'x', code: 200 }, 500],
    [{ message: 'm', type: 'rate_limit_exceeded' }, 429],
    [{ message: 'm', code: 'insufficient_quota' }, 429],
    [{ message: 'm', type: 'authentication_error' }, 401],
    [{ message: 'm', type: 'permission_error' }, 403],
    [{ message: 'm', type: 'not_found_error' }, 404],
    [{ message: 'm', type: 'invalid_request_error' }, 400],
    [{ message: 'm', code: 'context_length_exceeded' }, 400],
    [{ message: 'm', type: 'overloaded_error' }, 503],
    [{ message: 'm', type: 'timeout' }, 504],
    [{ message: 'm', type: 'server_error' }, 500],
    [{ message: 'm' }, 500],
    ['not an object', 500],
  ])('%j → %i', (payload, status) => {
    expect(streamErrorStatus(payload)).toBe(status);
  });
});
