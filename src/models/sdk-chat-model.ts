// Wraps an AI SDK provider model (LanguageModelV3, called through `doStream` directly — no
// `streamText`, so nothing here can ever execute a tool) as our ChatModel: one SDK stream per
// attempt, translated part by part; deadline, cancellation, retries and errors are the shared
// retrying model's. Azure OpenAI and Anthropic go through here; the OpenAI-compatible provider has
// its own lean stream (openai-chat/, decision 0651).
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Clock } from '../platform/clock/index.js';
import type { ChatModel, ChatRequest, ChatStreamPart } from './chat-model.js';
import type { ModelLog } from './model-log.js';
import { createRetryingChatModel, type Sleep } from './retrying-chat-model.js';
import { createStreamPartTranslator } from './stream-part-translator.js';
import { toFunctionTools } from './to-function-tools.js';
import { toLanguageModelPrompt } from './to-language-model-prompt.js';

/** A provider's model whose settings were checked, its SDK loaded at the first call (a service that never calls it never loads it). */
export interface LazyLanguageModel {
  readonly modelId: string;
  load(): Promise<LanguageModelV3>;
}

export interface SdkChatModelOptions {
  readonly provider: 'AzureOpenAI' | 'Anthropic';
  readonly languageModel: LazyLanguageModel;
  readonly timeoutSeconds: number;
  readonly maxOutputTokens: number;
  readonly temperature: number | null;
  readonly log: ModelLog;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random?: () => number;
}

export function createSdkChatModel(options: SdkChatModelOptions): ChatModel {
  const { languageModel, ...shared } = options;
  let loaded: Promise<LanguageModelV3> | undefined;
  const load = (): Promise<LanguageModelV3> =>
    (loaded ??= languageModel.load().catch((error: unknown) => {
      loaded = undefined; // the next call tries again
      throw error;
    }));
  return createRetryingChatModel({
    ...shared,
    modelId: languageModel.modelId,
    attempt: (request, signal) => streamOnce(load, callOptions(options, request, signal)),
  });
}

async function* streamOnce(load: () => Promise<LanguageModelV3>, options: LanguageModelV3CallOptions): AsyncGenerator<ChatStreamPart> {
  const { stream } = await (await load()).doStream(options);
  const reader = stream.getReader();
  const translator = createStreamPartTranslator();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = translator.translate(value);
      if (part !== null) yield part;
    }
    translator.end();
  } finally {
    // A consumer that stops early cancels the body, which closes the upstream connection.
    reader.cancel().catch(() => undefined);
  }
}

function callOptions(options: SdkChatModelOptions, request: ChatRequest, signal: AbortSignal): LanguageModelV3CallOptions {
  const temperature = request.temperature ?? options.temperature ?? undefined;
  return {
    prompt: toLanguageModelPrompt(request.messages),
    ...(request.tools.length > 0 ? { tools: toFunctionTools(request.tools), toolChoice: { type: 'auto' as const } } : {}),
    maxOutputTokens: request.maxOutputTokens ?? options.maxOutputTokens,
    ...(temperature !== undefined ? { temperature } : {}),
    abortSignal: signal,
  };
}
