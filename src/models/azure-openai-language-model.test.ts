import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatModelConfig } from '../platform/config/index.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer } from '../../test/helpers/fake-openai-server.js';
import { ChatModelError, type ChatModel, type ChatRequest, type ChatStreamPart } from './chat-model.js';
import { createChatModel, type ChatModelDeps } from './create-chat-model.js';
import { chatModelConfig } from '../../test/helpers/chat-model-config.js';

const KEY = 'azure-key-0123456789SECRET';

let fake: FakeOpenAIServer;
let logged: object[];

beforeEach(async () => {
  fake = await startFakeOpenAIServer();
  logged = [];
});
afterEach(async () => {
  await fake.close();
});

function config(overrides: Partial<ChatModelConfig> = {}): ChatModelConfig {
  return chatModelConfig({ provider: 'AzureOpenAI', endpoint: fake.url, apiKey: KEY, model: 'my-gpt4o-deployment', maxOutputTokens: 128, ...overrides });
}

function deps(extra: Partial<ChatModelDeps> = {}): ChatModelDeps {
  const log = (o: object, m: string): void => void logged.push({ o, m });
  return { log: { warn: log, info: log, debug: log }, sleep: () => Promise.resolve(), ...extra };
}

function model(overrides: Partial<ChatModelConfig> = {}, extra: Partial<ChatModelDeps> = {}): ChatModel {
  return createChatModel(config(overrides), deps(extra))!;
}

function request(): ChatRequest {
  return { messages: [{ role: 'user', content: 'Hello' }], tools: [], signal: new AbortController().signal };
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('AzureOpenAI provider', () => {
  it('calls the v1 route with the deployment as the model when no ApiVersion is set', async () => {
    fake.enqueue(openAIText('Hi', ' there'));
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'Hi' },
      { type: 'text-delta', delta: ' there' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/openai/v1/chat/completions');
    expect(sent.query).toEqual({});
    expect(sent.headers['api-key']).toBe(KEY);
    expect(sent.headers).not.toHaveProperty('authorization');
    expect(sent.body).toMatchObject({ model: 'my-gpt4o-deployment', stream: true, max_tokens: 128 });
  });

  it('calls the deployment route with api-version when a dated ApiVersion is set', async () => {
    fake.enqueue(openAIText('ok'));
    await collect(model({ apiVersion: '2024-10-21', endpoint: `${fake.url}/` }).stream(request()));
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/openai/deployments/my-gpt4o-deployment/chat/completions');
    expect(sent.query).toEqual({ 'api-version': '2024-10-21' });
  });

  it('accepts an Endpoint that already ends in /openai/v1', async () => {
    fake.enqueue(openAIText('ok'));
    await collect(model({ endpoint: `${fake.url}/openai/v1/` }).stream(request()));
    expect(fake.requests[0]!.path).toBe('/openai/v1/chat/completions');
  });

  it('streams tool calls with fragmented arguments as complete calls', async () => {
    fake.enqueue({ type: 'stream', steps: [{ toolCall: { id: 'call_z', name: 'clock', argumentChunks: ['{"operation":', '"now","parameters":{}}'] } }] });
    const parts = await collect(model().stream(request()));
    expect(parts[0]).toEqual({ type: 'tool-call', call: { id: 'call_z', name: 'clock', arguments: '{"operation":"now","parameters":{}}' } });
  });

  it('turns a bare resource name into the resource URL', async () => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = (input) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return Promise.resolve(new Response('{"error":{"message":"nope"}}', { status: 401, headers: { 'content-type': 'application/json' } }));
    };
    await expect(collect(model({ endpoint: 'contoso', apiVersion: '2025-01-01-preview' }, { fetch }).stream(request()))).rejects.toMatchObject({
      code: 'authentication',
    });
    expect(urls).toEqual(['https://contoso.openai.azure.com/openai/deployments/my-gpt4o-deployment/chat/completions?api-version=2025-01-01-preview']);
  });

  it('refuses an ApiVersion that is neither v1 nor dated, and missing settings, naming the key', () => {
    expect(() => model({ apiVersion: 'latest' })).toThrow('AppConfig:AI:ChatModel:ApiVersion');
    expect(() => model({ apiKey: null })).toThrow('AppConfig:AI:ChatModel:ApiKey is required for the AzureOpenAI chat-model provider.');
    expect(() => model({ endpoint: null })).toThrow('AppConfig:AI:ChatModel:Endpoint is required');
  });

  it('keeps the API key out of errors and logs when the server echoes it', async () => {
    fake.respondWith((_body, req) => ({
      type: 'error',
      status: 401,
      body: { error: { code: '401', message: `Access denied due to invalid subscription key ${String(req.headers['api-key'])}` } },
    }));
    const error = await collect(model().stream(request())).then(
      () => undefined,
      (e: unknown) => e as ChatModelError,
    );
    expect(error).toBeInstanceOf(ChatModelError);
    for (const surface of [error!.message, JSON.stringify(error), JSON.stringify(error!.cause), JSON.stringify(logged)]) {
      expect(surface).not.toContain(KEY);
    }
  });
});
