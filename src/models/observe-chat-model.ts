// Wraps the configured chat model once, at the composition root, so every call (agent turns, workflow
// LlmCall steps, the eval grader) is measured the same way whatever the provider: the model-call,
// token and cost metrics by provider and model, and with tracing on a `chat {model}` span with the
// OpenTelemetry GenAI attributes (operation, provider, request and response model, token usage,
// finish reasons). The provider's HTTP request runs inside that span, so traceparent goes with it.
// Prompt and completion text never reach a span or a label.
import type { ServiceMetrics } from '../platform/metrics/index.js';
import { markFailed, SpanKind, type Span, type Tracing } from '../platform/tracing/index.js';
import { ChatModelError, type ChatModel, type ChatRequest, type ChatStreamPart, type FinishReason } from './chat-model.js';

export interface ChatModelObservers {
  readonly metrics: ServiceMetrics;
  readonly tracing: Tracing;
  readonly pricing: { readonly inputPerMillionTokens: number; readonly outputPerMillionTokens: number };
  readonly now?: () => number;
}

/** gen_ai.provider.name values (OpenTelemetry GenAI semantic conventions). */
const GEN_AI_PROVIDER: Readonly<Record<ChatModel['provider'], string>> = {
  OpenAI: 'openai',
  AzureOpenAI: 'azure.ai.openai',
  Anthropic: 'anthropic',
  Scripted: 'portcullis.scripted',
};

/** gen_ai.response.finish_reasons values. */
const FINISH_REASON: Readonly<Record<FinishReason, string>> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
  'content-filter': 'content_filter',
  other: 'other',
};

export function observeChatModel(model: ChatModel, observers: ChatModelObservers): ChatModel {
  const { metrics, tracing, pricing } = observers;
  const now = observers.now ?? (() => performance.now());
  const { provider, modelId } = model;
  const succeeded = metrics.modelCalls.child(provider, modelId, 'succeeded');
  const failed = new Map<string, ReturnType<typeof metrics.modelCalls.child>>();
  const failure = (code: string) => {
    let child = failed.get(code);
    if (child === undefined) failed.set(code, (child = metrics.modelCalls.child(provider, modelId, code)));
    return child;
  };
  const duration = metrics.modelCallDuration.child(provider, modelId);
  const inputTokens = metrics.modelTokens.child(provider, modelId, 'input');
  const outputTokens = metrics.modelTokens.child(provider, modelId, 'output');
  const cost = metrics.modelCost.child(provider, modelId);
  const spanName = `chat ${modelId}`;

  async function* observe(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const started = now();
    const span = tracing.enabled ? tracing.startSpan(spanName, { kind: SpanKind.CLIENT, attributes: requestAttributes(request) }) : undefined;
    // The provider's request starts on the first next(): with a span, each step runs in its context.
    const parts = span === undefined ? model.stream(request)[Symbol.asyncIterator]() : tracing.withSpan(span, () => model.stream(request)[Symbol.asyncIterator]());
    const nextInSpan = (): Promise<IteratorResult<ChatStreamPart>> => parts.next();
    let outcome = 'aborted';
    try {
      for (;;) {
        const next = span === undefined ? await parts.next() : await tracing.withSpan(span, nextInSpan);
        if (next.done === true) break;
        const part = next.value;
        if (part.type === 'finish') {
          outcome = 'succeeded';
          inputTokens.inc(part.usage.inputTokens);
          outputTokens.inc(part.usage.outputTokens);
          cost.inc((part.usage.inputTokens * pricing.inputPerMillionTokens + part.usage.outputTokens * pricing.outputPerMillionTokens) / 1_000_000);
          span?.setAttributes({
            'gen_ai.response.model': modelId,
            'gen_ai.response.finish_reasons': [FINISH_REASON[part.finishReason]],
            'gen_ai.usage.input_tokens': part.usage.inputTokens,
            'gen_ai.usage.output_tokens': part.usage.outputTokens,
          });
        }
        yield part;
      }
    } catch (error) {
      outcome = error instanceof ChatModelError ? error.code : 'error';
      if (span !== undefined) markFailed(span, error);
      throw error;
    } finally {
      // A consumer that stops early (return) leaves the outcome as it was: aborted unless finished.
      (outcome === 'succeeded' ? succeeded : failure(outcome)).inc();
      duration.observe((now() - started) / 1000);
      endSpan(span, outcome);
    }
  }

  function requestAttributes(request: ChatRequest): Record<string, string | number> {
    const attributes: Record<string, string | number> = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': GEN_AI_PROVIDER[provider],
      'gen_ai.request.model': modelId,
    };
    if (request.maxOutputTokens !== undefined) attributes['gen_ai.request.max_tokens'] = request.maxOutputTokens;
    if (request.temperature !== undefined) attributes['gen_ai.request.temperature'] = request.temperature;
    return attributes;
  }

  return {
    specificationVersion: model.specificationVersion,
    provider,
    modelId,
    stream: (request) => observe(request),
  };
}

function endSpan(span: Span | undefined, outcome: string): void {
  if (span === undefined) return;
  if (outcome !== 'succeeded') span.setAttribute('error.type', outcome);
  span.end();
}
