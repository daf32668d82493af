// The `Anthropic` provider: the Messages API. Endpoint is the API base including `/v1` (a bare
// origin gets `/v1`); requests go to `{Endpoint}/messages` with `x-api-key`.
import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatModelConfig } from '../platform/config/index.js';
import { apiBaseUrl } from './api-base-url.js';
import { requiredSetting } from './required-setting.js';

export const ANTHROPIC_DEFAULT_ENDPOINT = 'https://api.anthropic.com/v1';

export function createAnthropicLanguageModel(config: ChatModelConfig, fetch?: typeof globalThis.fetch): LanguageModelV3 {
  const model = requiredSetting(config.model, 'Model', 'Anthropic');
  const provider = createAnthropic({
    baseURL: apiBaseUrl(config.endpoint ?? ANTHROPIC_DEFAULT_ENDPOINT, '/v1'),
    apiKey: requiredSetting(config.apiKey, 'ApiKey', 'Anthropic'),
    fetch,
  });
  return provider.messages(model);
}
