// Wraps an AI SDK provider model (LanguageModelV3, called through `doStream` directly — no
// `streamText`, so nothing here can ever execute a tool) as our ChatModel. Owns the behaviour all
// HTTP providers share: one deadline per call, cancellation that reaches the socket, retries
// before the first part only, and caller-safe errors.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Clock } from '../platform/clock/index.js';
import { openCallSignal, type CallSignal } from './call-signal.js';
import type { ChatModel, ChatRequest, ChatStreamPart } from './chat-model.js';
import { classifyModelError, type ModelFailure } from './classify-model-error.js';
import type { ModelLog } from './model-log.js';
import { MAX_RETRIES, retryDelayMs } from './retry-delay.js';
import { createStreamPartTranslator } from './stream-part-translator.js';
import { toFunctionTools } from './to-function-tools.js';
import { toLanguageModelPrompt } from './to-language-model-prompt.js';

export interface SdkChatModelOptions {
  readonly provider: 'OpenAI' | 'AzureOpenAI' | 'Anthropic';
  readonly languageModel: LanguageModelV3;
  readonly timeoutSeconds: number;
  readonly maxOutputTokens: number;
  readonly temperature: number | null;
  readonly log: ModelLog;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random?: () => number;
}

/** The retry pause; injected so tests never wait. Rejects once `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export function createSdkChatModel(options: SdkChatModelOptions): ChatModel {
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: options.provider,
    modelId: options.languageModel.modelId,
    stream: (request) => streamWithRetries(options, request),
  };
}

async function* streamWithRetries(options: SdkChatModelOptions, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
  const call = openCallSignal(request.signal, options.timeoutSeconds * 1000);
  const where = { provider: options.provider, model: options.languageModel.modelId };
  let completed = false;
  try {
    for (let attempt = 0; ; attempt += 1) {
      const progress = { yielded: false };
      try {
        yield* streamOnce(options.languageModel, callOptions(options, request, call.signal), progress);
        completed = true;
        return;
      } catch (error) {
        const failure = classify(error, call);
        if (progress.yielded || !failure.retryable || attempt >= MAX_RETRIES) {
          report(options.log, where, failure, { attempts: attempt + 1, streamed: progress.yielded });
          throw failure.error;
        }
        const delayMs = retryDelayMs({ attempt, headers: failure.headers, now: options.clock.now(), random: (options.random ?? Math.random)() });
        options.log.warn({ ...where, ...failure.detail, code: failure.error.code, attempt: attempt + 1, delayMs }, 'Chat model call failed; retrying.');
        try {
          await options.sleep(delayMs, call.signal);
        } catch (sleepError) {
          const interrupted = classify(sleepError, call);
          report(options.log, where, interrupted, { attempts: attempt + 1, streamed: false });
          throw interrupted.error;
        }
      }
    }
  } finally {
    call.close(completed);
  }
}

async function* streamOnce(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  progress: { yielded: boolean },
): AsyncGenerator<ChatStreamPart> {
  const { stream } = await model.doStream(options);
  const reader = stream.getReader();
  const translator = createStreamPartTranslator();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = translator.translate(value);
      if (part === null) continue;
      progress.yielded = true;
      yield part;
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

function classify(error: unknown, call: CallSignal): ModelFailure {
  return classifyModelError(error, { cancelled: call.cancelled(), timedOut: call.timedOut() });
}

function report(
  log: ModelLog,
  where: { provider: string; model: string },
  failure: ModelFailure,
  extra: { attempts: number; streamed: boolean },
): void {
  const entry = { ...where, ...failure.detail, code: failure.error.code, ...extra };
  if (failure.error.code === 'aborted') log.debug?.(entry, 'Chat model call cancelled.');
  else log.warn(entry, 'Chat model call failed.');
}
