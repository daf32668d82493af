// The `OpenAI` provider: any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
// LiteLLM) through the Chat Completions API — not Responses, which those servers do not speak — on
// a lean stream of our own (decision 0651): node:http, eventsource-parser and the AI SDK's tool-call
// tracker, with the SDK's request shape, chunk checks and error statuses. Settings come only from
// config (never process.env); the API key goes into the Authorization header and nowhere else, and
// no header at all is sent without one (local servers need none).
import { packageInfo } from '../../platform/package-info/index.js';
import type { Clock } from '../../platform/clock/index.js';
import type { ChatModelConfig } from '../../platform/config/index.js';
import { apiBaseUrl } from '../api-base-url.js';
import type { ChatModel, ChatStreamPart } from '../chat-model.js';
import type { ModelLog } from '../model-log.js';
import { requiredSetting } from '../required-setting.js';
import { createRetryingChatModel, type Sleep } from '../retrying-chat-model.js';
import { ChatCompletionReader } from './chat-completion-reader.js';
import { chatCompletionsBody, type ChatCompletionsSettings } from './chat-completions-body.js';
import { eventStreamEndpoint, postForEventStream, type EventStreamResponse } from './event-stream-request.js';
import { missingApiKeyVerdict } from './missing-api-key.js';
import { openAIModelFamily } from './openai-model-family.js';

export const OPENAI_DEFAULT_ENDPOINT = 'https://api.openai.com/v1';

export interface OpenAIChatModelDeps {
  readonly log: ModelLog;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random?: () => number;
  /** Headers to add to each request (the active trace context), asked when the request is made. */
  readonly requestHeaders?: () => Record<string, string>;
}

export function createOpenAIChatModel(config: ChatModelConfig, deps: OpenAIChatModelDeps): ChatModel {
  const modelId = requiredSetting(config.model, 'Model', 'OpenAI');
  const baseUrl = apiBaseUrl(config.endpoint ?? OPENAI_DEFAULT_ENDPOINT, '/v1');
  if (config.apiKey === null || config.apiKey.trim() === '') {
    const verdict = missingApiKeyVerdict(baseUrl);
    if (verdict === 'refuse') throw new Error(`AppConfig:AI:ChatModel:ApiKey is required for the OpenAI chat-model provider when the Endpoint is OpenAI's API (${new URL(baseUrl).origin}).`);
    if (verdict === 'warn') {
      deps.log.warn(
        { provider: 'OpenAI', endpoint: new URL(baseUrl).origin },
        'AppConfig:AI:ChatModel:ApiKey is not set, so requests carry no Authorization header: a local server needs none, but a hosted API answers 401.',
      );
    }
  }
  const endpoint = eventStreamEndpoint(`${baseUrl}/chat/completions`);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: '*/*',
    // Compressed SSE would cost a zlib context per open call; servers that compress anyway are decoded.
    'accept-encoding': 'identity',
    'user-agent': `portcullis/${packageInfo().version}`,
    ...(config.apiKey === null || config.apiKey === '' ? {} : { authorization: `Bearer ${config.apiKey}` }),
  };
  const settings: ChatCompletionsSettings = {
    modelId,
    family: openAIModelFamily(modelId),
    maxOutputTokens: config.maxOutputTokens,
    temperature: config.temperature,
  };
  const { requestHeaders, ...shared } = deps;
  // Our own headers win over the added ones: nothing added can replace the credentials or the body's type.
  const headersNow = requestHeaders === undefined ? () => headers : () => ({ ...requestHeaders(), ...headers });
  return createRetryingChatModel({
    provider: 'OpenAI',
    modelId,
    timeoutSeconds: config.timeoutSeconds,
    ...shared,
    attempt: (request, signal) => streamChatCompletion(() => postForEventStream(endpoint, headersNow(), chatCompletionsBody(request, settings), signal)),
  });
}

/**
 * `post` sends the request: the body is made and sent inside it, so the open call does not keep its
 * JSON text (about 2 KB for a small agent) for as long as the model streams.
 */
async function* streamChatCompletion(post: () => Promise<EventStreamResponse>): AsyncGenerator<ChatStreamPart> {
  const response = await post();
  const reader = new ChatCompletionReader(response.headers);
  const parts: ChatStreamPart[] = [];
  for await (const data of response.events()) {
    reader.read(data, parts);
    for (const part of parts) yield part;
    parts.length = 0;
  }
  reader.end(parts);
  yield* parts;
}
