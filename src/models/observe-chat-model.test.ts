import { describe, expect, it } from 'vitest';
import { ServiceMetrics } from '../platform/metrics/index.js';
import { TRACING_DISABLED } from '../platform/tracing/index.js';
import { ChatModelError, type ChatModel, type ChatStreamPart } from './chat-model.js';
import { observeChatModel } from './observe-chat-model.js';

function model(parts: ChatStreamPart[], failure?: ChatModelError): ChatModel {
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'OpenAI',
    modelId: 'gpt-test',
    stream: async function* () {
      yield* parts;
      if (failure !== undefined) throw failure;
    },
  };
}

const request = { messages: [], signal: new AbortController().signal } as never;
const pricing = { inputPerMillionTokens: 2, outputPerMillionTokens: 10 };

async function drain(iterable: AsyncIterable<ChatStreamPart>, stopAfter = Infinity): Promise<ChatStreamPart[]> {
  const seen: ChatStreamPart[] = [];
  for await (const part of iterable) {
    seen.push(part);
    if (seen.length >= stopAfter) break;
  }
  return seen;
}

const value = (metrics: ServiceMetrics, family: keyof ServiceMetrics, labels: Record<string, string>): number | undefined =>
  (metrics[family] as { get(): { values: Array<{ labels: Record<string, unknown>; value: number; metricName?: string }> } })
    .get()
    .values.find((v) => v.metricName === undefined && JSON.stringify(v.labels) === JSON.stringify(labels))?.value;

describe('observeChatModel', () => {
  it('passes every part through and counts a finished call, its tokens and its cost', async () => {
    const metrics = new ServiceMetrics({ enabled: true });
    const parts: ChatStreamPart[] = [
      { type: 'text-delta', delta: 'hi' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1_000, outputTokens: 500 } },
    ];
    const observed = observeChatModel(model(parts), { metrics, tracing: TRACING_DISABLED, pricing });
    expect(observed).toMatchObject({ provider: 'OpenAI', modelId: 'gpt-test' });
    expect(await drain(observed.stream(request))).toEqual(parts);
    expect(value(metrics, 'modelCalls', { provider: 'OpenAI', model: 'gpt-test', outcome: 'succeeded' })).toBe(1);
    expect(value(metrics, 'modelTokens', { provider: 'OpenAI', model: 'gpt-test', type: 'input' })).toBe(1_000);
    expect(value(metrics, 'modelTokens', { provider: 'OpenAI', model: 'gpt-test', type: 'output' })).toBe(500);
    expect(value(metrics, 'modelCost', { provider: 'OpenAI', model: 'gpt-test' })).toBeCloseTo((1_000 * 2 + 500 * 10) / 1_000_000);
  });

  it('counts a failed call by its ChatModelError code and rethrows it', async () => {
    const metrics = new ServiceMetrics({ enabled: true });
    const failure = new ChatModelError('rate-limited', 'slow down');
    const observed = observeChatModel(model([], failure), { metrics, tracing: TRACING_DISABLED, pricing });
    await expect(drain(observed.stream(request))).rejects.toBe(failure);
    expect(value(metrics, 'modelCalls', { provider: 'OpenAI', model: 'gpt-test', outcome: 'rate-limited' })).toBe(1);
    expect(value(metrics, 'modelCalls', { provider: 'OpenAI', model: 'gpt-test', outcome: 'succeeded' })).toBe(0);
  });

  it('counts a call its consumer stopped reading before the finish as aborted', async () => {
    const metrics = new ServiceMetrics({ enabled: true });
    const parts: ChatStreamPart[] = [
      { type: 'text-delta', delta: 'a' },
      { type: 'text-delta', delta: 'b' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
    ];
    const observed = observeChatModel(model(parts), { metrics, tracing: TRACING_DISABLED, pricing });
    expect(await drain(observed.stream(request), 1)).toHaveLength(1);
    expect(value(metrics, 'modelCalls', { provider: 'OpenAI', model: 'gpt-test', outcome: 'aborted' })).toBe(1);
  });
});
