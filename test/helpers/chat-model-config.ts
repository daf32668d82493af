// A complete chat-model configuration for provider tests: the defaults below, then the test's own
// provider, endpoint, key and limits on top.
import type { ChatModelConfig } from '../../src/platform/config/index.js';

export function chatModelConfig(overrides: Partial<ChatModelConfig> = {}): ChatModelConfig {
  return {
    provider: 'OpenAI',
    endpoint: null,
    apiKey: 'sk-test',
    model: 'gpt-4o-mini',
    apiVersion: null,
    timeoutSeconds: 5,
    maxOutputTokens: 256,
    maxPromptBytes: 2_097_152,
    temperature: null,
    pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0 },
    scriptPath: null,
    ...overrides,
  };
}
