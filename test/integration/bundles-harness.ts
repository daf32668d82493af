// Shared plumbing for the bundle integration tests: bundle archives and multipart bodies built in
// memory, settings for an enabled bundle plane, the five routes as small request helpers, a real
// listening server whose streams are read with the official AG-UI client, and a chat model that
// holds its reply until the test releases it (for queueing, serialisation and cancellation rows).
import { lastValueFrom, toArray } from 'rxjs';
import { runHttpRequest, transformHttpEventStream, verifyEvents } from '@ag-ui/client';
import type { ChatModel, ChatRequest, ChatStreamPart } from '../../src/models/index.js';
import type { App } from '../../src/platform/http/index.js';
import { buildZip, type ZipEntrySpec } from '../fixtures/zip-builder.js';
import { merge } from '../helpers/test-app.js';

export const AGENT_MD = '---\nid: helper\nname: Helper\ndescription: A helpful test agent.\n---\nYou are a helpful test agent.\n';

/** A bundle zip from archive paths → text. */
export function bundleZip(files: Record<string, string> = { 'AGENT.md': AGENT_MD }): Buffer {
  const entries: ZipEntrySpec[] = Object.entries(files).map(([name, data]) => ({ name, data }));
  return buildZip({ entries });
}

export interface MultipartOptions {
  readonly field?: string;
  readonly filename?: string;
  /** Bytes appended after the closing boundary (an epilogue). */
  readonly epilogue?: Buffer;
}

export function multipart(file: Buffer, options: MultipartOptions = {}): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----portcullis-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'bundle.zip'}"\r\n` +
      'Content-Type: application/zip\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payload = Buffer.concat([head, file, tail, options.epilogue ?? Buffer.alloc(0)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Settings with bundle execution enabled, anonymous development auth and the Scripted model. */
export function bundleSettings(tempRoot: string, ai: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    AppConfig: {
      AI: merge(
        {
          BundleExecution: {
            Enabled: true,
            TempRoot: tempRoot,
            Auth: { AllowAnonymous: true },
            Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'json', 'text'], AutonomyCeiling: 'Autonomous' } },
          },
          ChatModel: { Provider: 'Scripted' },
          RateLimits: Object.fromEntries(
            ['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete'].map((policy) => [policy, { PermitsPerMinute: 100_000 }]),
          ),
        },
        ai,
      ),
    },
  };
}

type Headers = Record<string, string>;

export async function register(app: App, headers: Headers = {}, zip: Buffer = bundleZip(), options: MultipartOptions = {}) {
  const body = multipart(zip, options);
  return app.inject({ method: 'POST', url: '/api/bundles', headers: { ...headers, ...body.headers }, payload: body.payload });
}

/** Registers and returns the handle (asserting 201). */
export async function registerHandle(app: App, headers: Headers = {}, zip?: Buffer): Promise<string> {
  const res = await register(app, headers, zip);
  if (res.statusCode !== 201) throw new Error(`register answered ${res.statusCode}: ${res.body}`);
  return res.json<{ handle: string }>().handle;
}

export function startRun(app: App, handle: string, body: unknown, headers: Headers = {}) {
  return app.inject({
    method: 'POST',
    url: `/api/bundles/${handle}/runs`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

export async function startJob(app: App, handle: string, body: unknown, headers: Headers = {}): Promise<string> {
  const res = await startRun(app, handle, body, headers);
  if (res.statusCode !== 202) throw new Error(`start-run answered ${res.statusCode}: ${res.body}`);
  return res.json<{ jobId: string }>().jobId;
}

export function poll(app: App, handle: string, jobId: string, headers: Headers = {}) {
  return app.inject({ method: 'GET', url: `/api/bundles/${handle}/runs/${jobId}`, headers });
}

export function deleteHandle(app: App, handle: string, headers: Headers = {}) {
  return app.inject({ method: 'DELETE', url: `/api/bundles/${handle}`, headers });
}

/** Polls until the run is terminal; each poll awaits the app, so this waits on events, not time. */
export async function settled(app: App, handle: string, jobId: string, headers: Headers = {}): Promise<Record<string, unknown>> {
  for (;;) {
    const res = await poll(app, handle, jobId, headers);
    const body = res.json<{ status: string }>();
    if (body.status === 'Succeeded' || body.status === 'Failed') return body;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Listens on loopback and returns the base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

/** A stream frame as plain data (`type` as a string, not the client's enum); SPEC.md's fields. */
export interface Frame {
  readonly type: string;
  readonly threadId?: string;
  readonly runId?: string;
  readonly messageId?: string;
  readonly role?: string;
  readonly delta?: string;
  readonly toolCallId?: string;
  readonly toolCallName?: string;
  readonly parentMessageId?: string;
  readonly content?: string;
  readonly withheld?: boolean;
  readonly message?: string;
}

/** Reads a whole bundle stream through the official AG-UI client, verifying the event order. */
export async function readVerifiedStream(url: string, headers: Headers = {}): Promise<Frame[]> {
  const events$ = transformHttpEventStream(runHttpRequest(() => fetch(url, { headers })));
  const events: Frame[] = await lastValueFrom(events$.pipe(verifyEvents(), toArray()));
  return events;
}

export interface RawStream {
  readonly response: Response;
  /** Data frames, parsed, in order. */
  frames(): Record<string, unknown>[];
  /** The exact bytes received so far. */
  text(): string;
  /** Resolves once a frame satisfies the predicate. */
  waitForFrame(predicate: (frame: Record<string, unknown>) => boolean): Promise<void>;
  /** Resolves when the server ends the body. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Opens a stream and reads it raw (exact bytes, early close); for status codes use inject. */
export async function openRawStream(url: string, headers: Headers = {}): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let text = '';
  const waiters = new Set<() => void>();
  const frames = (): Record<string, unknown>[] =>
    text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
  const ended = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (const wake of waiters) wake();
      }
    } catch {
      // aborted by close()
    }
    for (const wake of waiters) wake();
  })();
  return {
    response,
    frames,
    text: () => text,
    waitForFrame: (predicate) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (frames().some(predicate)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        void ended.then(() => {
          if (waiters.has(check)) reject(new Error(`stream ended without the awaited frame:\n${text}`));
        });
        check();
      }),
    ended,
    close: () => controller.abort(),
  };
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export interface GatedModel extends ChatModel {
  /** Every request, in arrival order. */
  readonly requests: ChatRequest[];
  /** Resolves once `count` requests have arrived. */
  arrived(count: number): Promise<void>;
  /** Lets the `index`-th request (0-based) answer. */
  release(index: number): void;
  /** Requests whose signal aborted while held. */
  readonly aborted: number;
}

/** A chat model that answers `You said: <last user message>` only once the test releases the request. */
export function gatedModel(): GatedModel {
  const requests: ChatRequest[] = [];
  const gates: Array<{ promise: Promise<void>; resolve: () => void }> = [];
  const arrivals = new Set<() => void>();
  let aborted = 0;
  const gate = (index: number) => (gates[index] ??= deferred<void>());
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: 'gated',
    requests,
    get aborted() {
      return aborted;
    },
    arrived: (count) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (requests.length >= count) {
            arrivals.delete(check);
            resolve();
          }
        };
        arrivals.add(check);
        check();
      }),
    release: (index) => gate(index).resolve(),
    async *stream(request): AsyncGenerator<ChatStreamPart> {
      const index = requests.length;
      requests.push(request);
      for (const check of arrivals) check();
      const onAbort = deferred();
      request.signal.addEventListener('abort', () => onAbort.resolve(), { once: true });
      await Promise.race([gate(index).promise, onAbort.promise]);
      if (request.signal.aborted) {
        aborted += 1;
        throw new DOMException('aborted', 'AbortError');
      }
      const last = [...request.messages].reverse().find((m) => m.role === 'user');
      yield { type: 'text-delta', delta: `You said: ${last?.content ?? ''}` };
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}
