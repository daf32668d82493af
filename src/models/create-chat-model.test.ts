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
});
