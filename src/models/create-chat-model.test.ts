import { describe, expect, it } from 'vitest';
import type { ChatModelConfig } from '../platform/config/index.js';
import { createChatModel } from './create-chat-model.js';

const base: ChatModelConfig = {
  provider: null,
  endpoint: null,
  apiKey: 'sk-never-logged-SECRET',
  model: null,
  apiVersion: null,
  timeoutSeconds: 120,
  maxOutputTokens: 4096,
  maxPromptBytes: 2_097_152,
  temperature: null,
  pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0 },
  scriptPath: null,
};

function capture() {
  const entries: { o: object; m: string }[] = [];
  const push = (o: object, m: string): void => void entries.push({ o, m });
  return { entries, log: { warn: push, info: push } };
}

describe('createChatModel', () => {
  it('returns null when no provider is configured', () => {
    expect(createChatModel(base, capture())).toBeNull();
  });

  it('builds the Scripted provider with the built-in script', () => {
    const model = createChatModel({ ...base, provider: 'Scripted' }, capture());
    expect(model).toMatchObject({ specificationVersion: 'portcullis-chat-v1', provider: 'Scripted', modelId: 'scripted' });
  });

  it('builds HTTP providers without contacting them and logs the origin only, never the key', () => {
    const { entries, log } = capture();
    const model = createChatModel({ ...base, provider: 'OpenAI', model: 'llama3.1', endpoint: 'http://localhost:11434/v1/' }, { log });
    expect(model).toMatchObject({ provider: 'OpenAI', modelId: 'llama3.1' });
    expect(entries).toEqual([{ o: { provider: 'OpenAI', model: 'llama3.1', endpoint: 'http://localhost:11434' }, m: 'Chat model configured.' }]);
    expect(JSON.stringify(entries)).not.toContain('SECRET');
  });

  it('refuses a missing model or a malformed endpoint, naming the key', () => {
    expect(() => createChatModel({ ...base, provider: 'OpenAI' }, capture())).toThrow(
      'AppConfig:AI:ChatModel:Model is required for the OpenAI chat-model provider.',
    );
    expect(() => createChatModel({ ...base, provider: 'OpenAI', model: 'm', endpoint: 'localhost:8080' }, capture())).toThrow(
      'AppConfig:AI:ChatModel:Endpoint must be an http or https URL.',
    );
    expect(() => createChatModel({ ...base, provider: 'OpenAI', model: 'm', endpoint: 'http://u:p@host/v1?k=1' }, capture())).toThrow(
      'AppConfig:AI:ChatModel:Endpoint must not carry credentials, a query or a fragment.',
    );
    expect(() => createChatModel({ ...base, provider: 'OpenAI', model: 'm', endpoint: 'not a url' }, capture())).toThrow(
      'AppConfig:AI:ChatModel:Endpoint is not an absolute URL.',
    );
  });

  it('refuses OpenAI’s own API without ApiKey, warns for an endpoint that does not look local, and says nothing for a local one', () => {
    const keyless = { ...base, provider: 'OpenAI' as const, model: 'gpt-4o-mini', apiKey: null };
    const refusal = 'AppConfig:AI:ChatModel:ApiKey is required for the OpenAI chat-model provider when the Endpoint is OpenAI\'s API (https://api.openai.com).';
    expect(() => createChatModel(keyless, capture())).toThrow(refusal);
    expect(() => createChatModel({ ...keyless, endpoint: 'https://API.openai.com/v1/' }, capture())).toThrow(refusal);
    expect(() => createChatModel({ ...keyless, apiKey: '  ' }, capture())).toThrow(refusal);

    const warned = capture();
    createChatModel({ ...keyless, endpoint: 'https://llm.example.com/v1' }, warned);
    expect(warned.entries[0]).toEqual({
      o: { provider: 'OpenAI', endpoint: 'https://llm.example.com' },
      m: 'AppConfig:AI:ChatModel:ApiKey is not set, so requests carry no Authorization header: a local server needs none, but a hosted API answers 401.',
    });
    const publicIp = capture();
    createChatModel({ ...keyless, endpoint: 'http://8.8.8.8:8000/v1' }, publicIp);
    expect(publicIp.entries.map((entry) => entry.m)[0]).toMatch(/ApiKey is not set/);

    for (const endpoint of ['http://127.0.0.1:11434/v1', 'http://localhost:8000', 'http://ollama:11434', 'http://[::1]:1234/v1', 'http://10.1.2.3/v1', 'http://gpu-box.internal:8000/v1', 'http://192.168.1.20:1234']) {
      const quiet = capture();
      createChatModel({ ...keyless, endpoint }, quiet);
      expect(quiet.entries.map((entry) => entry.m), endpoint).toEqual(['Chat model configured.']);
    }
    // With a key, OpenAI's API is fine and nothing is said about it.
    const keyed = capture();
    createChatModel({ ...keyless, apiKey: 'sk-never-logged-SECRET' }, keyed);
    expect(keyed.entries.map((entry) => entry.m)).toEqual(['Chat model configured.']);
  });
});
