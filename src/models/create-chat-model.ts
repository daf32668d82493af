// Builds the configured chat model (ChatModel:Provider), or null when none is configured.
// Connection settings come from config only; a missing or malformed one throws at start-up with
// the key named. The API key is handed to the provider and nowhere else. Every model is wrapped so no
// request larger than ChatModel:MaxPromptBytes is ever sent.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { systemClock, type Clock } from '../platform/clock/index.js';
import type { ChatModelConfig } from '../platform/config/index.js';
import { createAnthropicLanguageModel } from './anthropic-language-model.js';
import { endpointOrigin } from './api-base-url.js';
import { createAzureOpenAILanguageModel } from './azure-openai-language-model.js';
import type { ChatModel } from './chat-model.js';
import { limitPromptBytes } from './limit-prompt-bytes.js';
import type { ModelLog } from './model-log.js';
import { createOpenAIChatModel } from './openai-chat/create-openai-chat-model.js';
import type { Sleep } from './retrying-chat-model.js';
import { createScriptedModel } from './scripted/create-scripted-model.js';
import { createSdkChatModel } from './sdk-chat-model.js';

export interface ChatModelDeps {
  readonly log: ModelLog;
  readonly clock?: Clock;
  /** The HTTP client of the SDK providers (AzureOpenAI, Anthropic); the OpenAI provider uses node:http. */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers each OpenAI request carries besides its own (the active trace context), asked per request. */
  readonly requestHeaders?: () => Record<string, string>;
  readonly sleep?: Sleep;
}

const LANGUAGE_MODELS = {
  AzureOpenAI: createAzureOpenAILanguageModel,
  Anthropic: createAnthropicLanguageModel,
} as const;

export function createChatModel(config: ChatModelConfig, deps: ChatModelDeps): ChatModel | null {
  const provider = config.provider;
  if (provider === null) return null;
  if (provider === 'Scripted') {
    const model = createScriptedModel({ scriptPath: config.scriptPath, modelId: config.model ?? 'scripted' });
    deps.log.info({ provider, model: model.modelId, script: config.scriptPath ?? 'built-in' }, 'Chat model configured.');
    return limitPromptBytes(model, config.maxPromptBytes);
  }
  const shared = {
    log: deps.log,
    clock: deps.clock ?? systemClock,
    // A retry pause that ends early (rejecting) when the call is cancelled or times out.
    sleep: deps.sleep ?? ((ms: number, signal: AbortSignal) => sleepFor(ms, undefined, { signal })),
  };
  const model =
    provider === 'OpenAI'
      ? createOpenAIChatModel(config, deps.requestHeaders === undefined ? shared : { ...shared, requestHeaders: deps.requestHeaders })
      : createSdkChatModel({
          provider,
          languageModel: LANGUAGE_MODELS[provider](config, deps.fetch),
          timeoutSeconds: config.timeoutSeconds,
          maxOutputTokens: config.maxOutputTokens,
          temperature: config.temperature,
          ...shared,
        });
  deps.log.info({ provider, model: model.modelId, endpoint: endpointOrigin(config.endpoint) }, 'Chat model configured.');
  return limitPromptBytes(model, config.maxPromptBytes);
}
