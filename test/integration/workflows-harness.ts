// Shared plumbing of the workflow HTTP tests: settings, step builders, a chat model the test holds
// until it says so, and polling that yields to the event loop instead of sleeping.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ChatModelError, type ChatModel, type ChatRequest, type ChatStreamPart } from '../../src/models/index.js';
import type { App } from '../../src/platform/http/index.js';
import { merge, type TestApp } from '../helpers/test-app.js';

export const HANDBOOK = fileURLToPath(new URL('../../examples/knowledge', import.meta.url));

/** Anonymous Development settings: clock, json, knowledge and http_fetch granted with Autonomous. */
export function workflowSettings(ai: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    AppConfig: {
      AI: merge(
        {
          BundleExecution: {
            Auth: { AllowAnonymous: true },
            Envelopes: { Default: { AllowedTools: ['clock', 'json', 'knowledge', 'http_fetch'], AutonomyCeiling: 'Autonomous' } },
          },
          Retrieval: { Indexes: { handbook: { Root: HANDBOOK } } },
          // Tests issue many requests a minute; the policies themselves are tested with low limits.
          RateLimits: { 'workflows-write': { PermitsPerMinute: 100_000 }, 'workflows-read': { PermitsPerMinute: 100_000 } },
        },
        ai,
      ),
    },
  };
}

type Step = { name: string; type: string; configuration: Record<string, unknown> };

export const toolStep = (name: string, tool = 'clock', operation = 'now', parameters: Record<string, unknown> = {}): Step => ({
  name,
  type: 'ToolUse',
  configuration: { type: 'ToolUse', tool, operation, parameters },
});
export const llmStep = (name: string, prompt: string, extra: Record<string, unknown> = {}): Step => ({
  name,
  type: 'LlmCall',
  configuration: { type: 'LlmCall', prompt, ...extra },
});
export const gateStep = (name: string, message = 'Proceed?', timeout?: string): Step => ({
  name,
  type: 'HumanGate',
  configuration: { type: 'HumanGate', message, ...(timeout ? { timeout } : {}) },
});
export const branchStep = (name: string, condition: string, ifTrue: string, ifFalse: string): Step => ({
  name,
  type: 'ConditionalBranch',
  configuration: { type: 'ConditionalBranch', condition, ifTrue, ifFalse },
});
export const subPlanStep = (name: string, workflowId: string): Step => ({
  name,
  type: 'SubPlanInvocation',
  configuration: { type: 'SubPlanInvocation', workflowId },
});
export const retrievalStep = (name: string, queries: string[], topK?: number, index = 'handbook'): Step => ({
  name,
  type: 'RetrievalPlan',
  configuration: { type: 'RetrievalPlan', index, queries, ...(topK ? { topK } : {}) },
});

/** `['a>b', 'b>c']` → edges. */
export const edges = (...pairs: string[]) => pairs.map((pair) => ({ from: pair.split('>')[0]!, to: pair.split('>')[1]!, type: 'ControlFlow' }));

export function chain(name: string, ...steps: Step[]) {
  return { name, steps, edges: steps.slice(1).map((step, i) => ({ from: steps[i]!.name, to: step.name })) };
}

export async function submit(app: App, definition: unknown, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/workflows', payload: definition as object, headers });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function start(app: App, workflowId: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url: `/api/workflows/${workflowId}/runs`, headers, ...(body === undefined ? {} : { payload: body as object }) });
  expect(res.statusCode, res.body).toBe(202);
  return res.json<{ jobId: string; statusUrl: string }>();
}

/** A poll body as the tests read it: loosely, field by field, against DESIGN §6. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunBody = any;

export async function poll(app: App, statusUrl: string, headers: Record<string, string> = {}): Promise<RunBody> {
  const res = await app.inject({ method: 'GET', url: statusUrl, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RunBody>();
}

/** Waits a little between polls: an event-loop turn at first, then 5 ms (a database round trip may be needed). */
async function pause(attempt: number): Promise<void> {
  if (attempt < 200) await nextTurn();
  else await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Polls until the run satisfies `done` (up to 15 s, so a loaded machine or a database does not fail it). */
export async function pollUntil(app: App, statusUrl: string, done: (run: RunBody) => boolean, headers: Record<string, string> = {}): Promise<RunBody> {
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; Date.now() < deadline; attempt += 1) {
    const run = await poll(app, statusUrl, headers);
    if (done(run)) return run;
    await pause(attempt);
  }
  throw new Error(`run at ${statusUrl} never reached the expected state`);
}

export const isFinal = (run: { status: string }) => ['Succeeded', 'Failed', 'Cancelled'].includes(run.status);
export const statusIs = (status: string) => (run: { status: string }) => run.status === status;
/** The named step is stored as `status` (what a SNAPSHOT, read from the storage, would show). */
export const stepIs = (name: string, status: string) => (run: { steps?: Array<{ name: string; status: string }> }) =>
  run.steps?.some((step) => step.name === name && step.status === status) === true;

export async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; Date.now() < deadline && !condition(); attempt += 1) await pause(attempt);
  expect(condition()).toBe(true);
}

/** A chat model whose every call waits until the test releases it (or the call is aborted). */
export function heldModel() {
  const calls: Array<{ request: ChatRequest; release: (text: string) => void }> = [];
  const model: ChatModel = {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: 'held',
    stream: (request) => held(request),
  };
  async function* held(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    let release!: (text: string) => void;
    const text = new Promise<string>((resolve, reject) => {
      release = resolve;
      request.signal.addEventListener('abort', () => reject(new ChatModelError('aborted', 'The chat model request was cancelled.')), { once: true });
    });
    calls.push({ request, release });
    yield { type: 'text-delta', delta: await text };
    yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } };
  }
  return { model, calls };
}

export interface Frame {
  readonly id: string | undefined;
  readonly data: { type: string; sequence?: number; [key: string]: unknown };
}

export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** Opens a stream and collects its frames; `ended` resolves when the server closes it. */
export async function attach(base: string, path: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(`${base}${path}`, { headers, signal: abort.signal });
  const frames: Frame[] = [];
  let closed = false;
  const parser = createParser({ onEvent: (event) => frames.push({ id: event.id, data: JSON.parse(event.data) as Frame['data'] }) });
  const ended = (async () => {
    if (res.status !== 200 || res.body === null) return;
    const decoder = new TextDecoder();
    for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }));
  })()
    .catch(() => undefined)
    .finally(() => (closed = true));
  return {
    res,
    frames,
    ended,
    isClosed: () => closed,
    types: () => frames.map((f) => f.data.type),
    close: () => abort.abort(),
  };
}
