// A real OpenAI-compatible Chat Completions server on loopback for tests: SSE chunks exactly as
// OpenAI streams them (role chunk, content deltas, tool_calls deltas with index/id/name then
// argument fragments, a finish_reason chunk, a usage chunk when `stream_options.include_usage`
// asks, `data: [DONE]`). Scripted per request (a queue, else a function of the body); records
// every request and every connection the client closed early. It also exports the small scripted
// SSE server core the Anthropic fake reuses. It does not validate requests beyond routing.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------------------------
// Shared core: scripted replies, recording, abort tracking, SSE framing.

/** Parsed JSON request body (raw text when it did not parse). Tests read it field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted ad hoc in tests
export type FakeRequestBody = any;

export interface FakeRequest {
  readonly method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: FakeRequestBody;
  /** Every SSE frame written so far (`event: …\n` when present, then `data: …`), in order. */
  readonly sent: string[];
  /** `aborted`: the client closed the connection before the reply ended; `disconnected`: the script dropped it. */
  state: 'open' | 'completed' | 'aborted' | 'disconnected';
}

/** Steps every protocol understands, mixed with the protocol's own steps. */
export type FakeControlStep =
  | { readonly delayMs: number }
  /** Hold the stream until the test settles this promise (deterministic "the upstream is mid-stream"). */
  | { readonly until: PromiseLike<unknown> }
  /** Stop sending and keep the connection open until the client leaves. */
  | { readonly hang: true }
  /** Destroy the socket mid-stream, as a crashed upstream would. */
  | { readonly disconnect: true };

export type FakeErrorReply = {
  readonly type: 'error';
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON body; the protocol's usual error body for `status` when absent. */
  readonly body?: unknown;
};

/** Accept the request and never answer (no status line), until the client leaves. */
export type FakeHangReply = { readonly type: 'hang' };

export type ReplyHandler<Reply> = (body: FakeRequestBody, request: FakeRequest) => Reply;

export interface FakeServer<Reply> {
  /** `http://127.0.0.1:{port}` */
  readonly url: string;
  readonly requests: readonly FakeRequest[];
  /** Connections the client closed before the reply ended. */
  readonly abortedRequests: number;
  /** Replies used in order, before the handler is consulted. */
  enqueue(...replies: Reply[]): void;
  /** Answers requests once the queue is empty. */
  respondWith(handler: ReplyHandler<Reply>): void;
  /** Resolves once `count` connections in total have been closed early by the client. */
  waitForAbort(count?: number): Promise<void>;
  close(): Promise<void>;
}

/** The SSE side of one streamed reply, handed to a protocol's renderer. */
export interface FakeSseStream {
  readonly open: boolean;
  /** One frame: `event: {event}\n` when given, `data: {JSON or raw string}\n\n`. */
  send(data: unknown, event?: string): void;
  /** Runs a control step; resolves false when the connection is gone and rendering should stop. */
  control(step: FakeControlStep): Promise<boolean>;
  end(): void;
}

export interface FakeProtocol<Reply> {
  readonly routes: RegExp;
  /** Error JSON for an `error` reply without a body. */
  errorBody(status: number): unknown;
  /** Writes a `stream` reply after the 200 + SSE headers. */
  render(reply: Reply, stream: FakeSseStream, request: FakeRequest): Promise<void>;
}

export async function startFakeSseServer<Reply extends { readonly type: string }>(
  protocol: FakeProtocol<Reply>,
  script: readonly Reply[] | ReplyHandler<Reply> = [],
): Promise<FakeServer<Reply>> {
  const queue: Reply[] = typeof script === 'function' ? [] : [...script];
  let handler: ReplyHandler<Reply> | undefined = typeof script === 'function' ? script : undefined;
  const requests: FakeRequest[] = [];
  const abortWaiters = new Set<() => void>();
  let aborted = 0;
  let closing = false;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseBody(text),
        sent: [],
        state: 'open',
      };
      requests.push(request);
      const leave = new AbortController();
      res.on('close', () => {
        if (request.state === 'open') {
          request.state = res.writableFinished ? 'completed' : closing ? 'disconnected' : 'aborted';
          if (request.state === 'aborted') {
            aborted += 1;
            for (const wake of abortWaiters) wake();
          }
        }
        leave.abort();
      });
      void answer(request, res, leave.signal);
    });
  });

  async function answer(request: FakeRequest, res: ServerResponse, left: AbortSignal): Promise<void> {
    if (request.method !== 'POST' || !protocol.routes.test(request.path)) {
      sendJson(res, 404, protocol.errorBody(404));
      return;
    }
    const reply = queue.shift() ?? handler?.(request.body, request);
    if (reply === undefined) {
      sendJson(res, 400, { error: { message: 'fake server: no scripted reply left', type: 'invalid_request_error' } });
      return;
    }
    if (reply.type === 'hang') return waitUntil(left);
    if (reply.type === 'error') {
      const error = reply as unknown as FakeErrorReply;
      sendJson(res, error.status, error.body ?? protocol.errorBody(error.status), error.headers);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    await protocol.render(reply, sseStream(request, res, left), request);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get abortedRequests() {
      return aborted;
    },
    enqueue: (...replies) => void queue.push(...replies),
    respondWith: (next) => void (handler = next),
    waitForAbort: (count = 1) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (aborted < count) return;
          abortWaiters.delete(check);
          resolve();
        };
        abortWaiters.add(check);
        check();
      }),
    close: async () => {
      closing = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sseStream(request: FakeRequest, res: ServerResponse, left: AbortSignal): FakeSseStream {
  return {
    get open() {
      return request.state === 'open' && !left.aborted;
    },
    send(data, event) {
      if (request.state !== 'open') return;
      const frame = `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}`;
      request.sent.push(frame);
      res.write(`${frame}\n\n`);
    },
    async control(step) {
      if ('delayMs' in step) await pause(step.delayMs, left);
      else if ('until' in step) await Promise.race([step.until, waitUntil(left)]);
      else if ('hang' in step) await waitUntil(left);
      else {
        request.state = 'disconnected';
        res.socket?.destroy();
      }
      return request.state === 'open' && !left.aborted;
    },
    end() {
      if (request.state === 'open') res.end();
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function parseBody(text: string): FakeRequestBody {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pause(ms: number, left: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    left.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

function waitUntil(left: AbortSignal): Promise<void> {
  return new Promise((resolve) => (left.aborted ? resolve() : left.addEventListener('abort', () => resolve(), { once: true })));
}

// ---------------------------------------------------------------------------------------------
// The OpenAI Chat Completions protocol.

export type FakeOpenAIStep =
  | { readonly text: string }
  | { readonly toolCall: { readonly id?: string; readonly name: string; readonly argumentChunks: readonly string[] } }
  /** One raw `data:` payload (an object is JSON-encoded), e.g. a mid-stream `{ error: … }`. */
  | { readonly data: unknown }
  | FakeControlStep;

export type FakeOpenAIReply =
  | {
      readonly type: 'stream';
      readonly steps: readonly FakeOpenAIStep[];
      /** Default `tool_calls` when the reply has tool calls, else `stop`; null sends no finish chunk. */
      readonly finishReason?: string | null;
      /** Default 10/5; null omits the usage chunk even when the client asked for it. */
      readonly usage?: { readonly promptTokens: number; readonly completionTokens: number } | null;
    }
  | FakeErrorReply
  | FakeHangReply;

export type FakeOpenAIServer = FakeServer<FakeOpenAIReply>;

/** A streamed reply of these text chunks, one chunk each. */
export function openAIText(...chunks: string[]): FakeOpenAIReply {
  return { type: 'stream', steps: chunks.map((text) => ({ text })) };
}

export function startFakeOpenAIServer(
  script: readonly FakeOpenAIReply[] | ReplyHandler<FakeOpenAIReply> = [],
): Promise<FakeOpenAIServer> {
  return startFakeSseServer(createOpenAIProtocol(), script);
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};

function createOpenAIProtocol(): FakeProtocol<FakeOpenAIReply> {
  let completionCounter = 0;
  return {
    routes: /\/chat\/completions$/,
    errorBody: (status) => ({
      error: { message: `fake error ${status}`, type: OPENAI_ERROR_TYPES[status] ?? 'server_error', param: null, code: null },
    }),
    async render(reply, stream, request) {
      if (reply.type !== 'stream') return;
      const withUsage = request.body?.stream_options?.include_usage === true;
      completionCounter += 1;
      const base = {
        id: `chatcmpl-fake${completionCounter}`,
        object: 'chat.completion.chunk',
        created: 1_767_225_600,
        model: typeof request.body?.model === 'string' ? request.body.model : 'fake-model',
        system_fingerprint: 'fp_fake',
      };
      const chunk = (choices: unknown[], extra: object = {}): object => ({ ...base, choices, ...(withUsage ? { usage: null } : {}), ...extra });
      const choice = (delta: object, finishReason: string | null = null): object => ({ index: 0, delta, logprobs: null, finish_reason: finishReason });

      const startsWithTool = reply.steps.find((s) => 'text' in s || 'toolCall' in s);
      stream.send(chunk([choice({ role: 'assistant', content: startsWithTool && 'toolCall' in startsWithTool ? null : '', refusal: null })]));
      let toolIndex = 0;
      for (const step of reply.steps) {
        if (!stream.open) return;
        if ('text' in step) stream.send(chunk([choice({ content: step.text })]));
        else if ('data' in step) stream.send(step.data);
        else if ('toolCall' in step) {
          const index = toolIndex++;
          const id = step.toolCall.id ?? `call_fake${completionCounter}_${index}`;
          stream.send(chunk([choice({ tool_calls: [{ index, id, type: 'function', function: { name: step.toolCall.name, arguments: '' } }] })]));
          for (const fragment of step.toolCall.argumentChunks) {
            stream.send(chunk([choice({ tool_calls: [{ index, function: { arguments: fragment } }] })]));
          }
        } else if (!(await stream.control(step))) return;
      }
      const finishReason = reply.finishReason === undefined ? (toolIndex > 0 ? 'tool_calls' : 'stop') : reply.finishReason;
      if (finishReason !== null) stream.send(chunk([choice({}, finishReason)]));
      const usage = reply.usage === undefined ? { promptTokens: 10, completionTokens: 5 } : reply.usage;
      if (withUsage && usage !== null) {
        const { promptTokens, completionTokens } = usage;
        stream.send({ ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } });
      }
      stream.send('[DONE]');
      stream.end();
    },
  };
}
