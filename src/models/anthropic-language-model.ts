// The `Anthropic` provider: the Messages API. Endpoint is the API base including `/v1` (a bare
// origin gets `/v1`); requests go to `{Endpoint}/messages` with `x-api-key`.
// The settings are checked when the model is configured; the SDK is loaded at the first call.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatModelConfig } from '../platform/config/index.js';
import { apiBaseUrl } from './api-base-url.js';
import { requiredSetting } from './required-setting.js';
import type { LazyLanguageModel } from './sdk-chat-model.js';

export const ANTHROPIC_DEFAULT_ENDPOINT = 'https://api.anthropic.com/v1';

export function createAnthropicLanguageModel(config: ChatModelConfig, fetch?: typeof globalThis.fetch): LazyLanguageModel {
  const model = requiredSetting(config.model, 'Model', 'Anthropic');
  const baseURL = apiBaseUrl(config.endpoint ?? ANTHROPIC_DEFAULT_ENDPOINT, '/v1');
  const apiKey = requiredSetting(config.apiKey, 'ApiKey', 'Anthropic');
  const load = async (): Promise<LanguageModelV3> => {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    return createAnthropic({ baseURL, apiKey, fetch }).messages(model);
  };
  return { modelId: model, load };
}
