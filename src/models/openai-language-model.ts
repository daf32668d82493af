// The `OpenAI` provider: any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp,
// LM Studio, LiteLLM) through the Chat Completions API — not Responses, which those servers do
// not speak. Settings come only from config: the SDK is never left to read process.env.
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatModelConfig } from '../platform/config/index.js';
import { apiBaseUrl } from './api-base-url.js';
import { requiredSetting } from './required-setting.js';

export const OPENAI_DEFAULT_ENDPOINT = 'https://api.openai.com/v1';

export function createOpenAILanguageModel(config: ChatModelConfig, fetch?: typeof globalThis.fetch): LanguageModelV3 {
  const model = requiredSetting(config.model, 'Model', 'OpenAI');
  const keyless = config.apiKey === null || config.apiKey === '';
  const provider = createOpenAI({
    baseURL: apiBaseUrl(config.endpoint ?? OPENAI_DEFAULT_ENDPOINT, '/v1'),
    // Local servers need no key; an empty string stops the SDK falling back to OPENAI_API_KEY.
    apiKey: config.apiKey ?? '',
    fetch: keyless ? withoutAuthorization(fetch) : fetch,
  });
  return provider.chat(model);
}

/** Drops the SDK's empty `Authorization: Bearer ` header when no key is configured. */
function withoutAuthorization(fetch: typeof globalThis.fetch | undefined): typeof globalThis.fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    return (fetch ?? globalThis.fetch)(input, { ...init, headers });
  };
}
