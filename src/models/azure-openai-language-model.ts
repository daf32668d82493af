// The `AzureOpenAI` provider (Chat Completions). Endpoint is the resource URL (or bare resource
// name); Model is the deployment. A dated ApiVersion (`2024-10-21`, `2025-01-01-preview`) uses
// the classic `/openai/deployments/{deployment}/chat/completions?api-version=…` route; no
// ApiVersion, or `v1`, uses the v1 route `/openai/v1/chat/completions` with the deployment as `model`.
// The settings are checked when the model is configured; the SDK is loaded at the first call.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatModelConfig } from '../platform/config/index.js';
import { apiBaseUrl } from './api-base-url.js';
import { requiredSetting } from './required-setting.js';
import type { LazyLanguageModel } from './sdk-chat-model.js';

const DATED_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

export function createAzureOpenAILanguageModel(config: ChatModelConfig, fetch?: typeof globalThis.fetch): LazyLanguageModel {
  const deployment = requiredSetting(config.model, 'Model', 'AzureOpenAI');
  const apiKey = requiredSetting(config.apiKey, 'ApiKey', 'AzureOpenAI');
  const root = resourceRoot(requiredSetting(config.endpoint, 'Endpoint', 'AzureOpenAI'));
  const version = config.apiVersion?.trim() || 'v1';
  if (version !== 'v1' && !DATED_VERSION.test(version)) {
    throw new Error('AppConfig:AI:ChatModel:ApiVersion must be "v1" or a dated version such as 2024-10-21.');
  }
  const load = async (): Promise<LanguageModelV3> => {
    const { createAzure } = await import('@ai-sdk/azure');
    const provider =
      version === 'v1'
        ? createAzure({ baseURL: `${root}/openai/v1`, apiKey, fetch })
        : createAzure({ baseURL: `${root}/openai`, apiKey, apiVersion: version, useDeploymentBasedUrls: true, fetch });
    return provider.chat(deployment);
  };
  return { modelId: deployment, load };
}

/** `https://res.openai.azure.com[/openai[/v1]]/` or `res` → `https://res.openai.azure.com`. */
function resourceRoot(endpoint: string): string {
  const url = /^[a-z0-9-]+$/i.test(endpoint) ? `https://${endpoint}.openai.azure.com` : endpoint;
  return apiBaseUrl(url, '').replace(/\/openai(\/v1)?$/i, '');
}
