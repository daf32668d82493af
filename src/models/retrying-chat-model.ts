// The behaviour every HTTP chat-model provider shares, around one provider-specific attempt: one
// deadline per call (TimeoutSeconds, over the whole stream), cancellation that reaches the socket,
// retries before the first part only (honouring Retry-After), caller-safe errors and one log line per
// failure. It does not know any wire protocol: `attempt` streams one upstream request.
import type { Clock } from '../platform/clock/index.js';
import { openCallSignal, type CallSignal } from './call-signal.js';
import type { ChatModel, ChatRequest, ChatStreamPart } from './chat-model.js';
import { classifyModelError, type ModelFailure } from './classify-model-error.js';
import type { ModelLog } from './model-log.js';
import { MAX_RETRIES, retryDelayMs } from './retry-delay.js';

/** The retry pause; injected so tests never wait. Rejects once `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** One upstream request; `signal` is the call's (caller ∪ deadline). Ends after the one `finish` part. */
export type ChatAttempt = (request: ChatRequest, signal: AbortSignal) => AsyncIterable<ChatStreamPart>;

export interface RetryingChatModelOptions {
  readonly provider: 'OpenAI' | 'AzureOpenAI' | 'Anthropic';
  readonly modelId: string;
  readonly attempt: ChatAttempt;
  readonly timeoutSeconds: number;
  readonly log: ModelLog;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly random?: () => number;
}

export function createRetryingChatModel(options: RetryingChatModelOptions): ChatModel {
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: options.provider,
    modelId: options.modelId,
    stream: (request) => streamWithRetries(options, request),
  };
}

async function* streamWithRetries(options: RetryingChatModelOptions, request: ChatRequest): AsyncGenerator<ChatStreamPart> {
  const call = openCallSignal(request.signal, options.timeoutSeconds * 1000);
  const where = { provider: options.provider, model: options.modelId };
  let completed = false;
  try {
    for (let attempt = 0; ; attempt += 1) {
      let yielded = false;
      try {
        for await (const part of options.attempt(request, call.signal)) {
          yielded = true;
          yield part;
        }
        completed = true;
        return;
      } catch (error) {
        const failure = classify(error, call);
        if (yielded || !failure.retryable || attempt >= MAX_RETRIES) {
          report(options.log, where, failure, { attempts: attempt + 1, streamed: yielded });
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
