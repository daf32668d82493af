// The one SSE writer: headers, framing, heartbeats, a bounded write buffer and an AbortSignal that fires
// on disconnect, drop or close. It does not queue or replay frames and never waits for `drain`: a client
// that falls more than maxBufferedBytes behind is dropped, so memory per stream stays bounded.
import type { ServerResponse } from 'node:http';
import { SseAbortError, type SseAbortCode } from './sse-abort-error.js';
import { sseCommentFrame, sseDataFrame, type SseEventId } from './sse-frame.js';

export interface SseOptions {
  /** Interval of `: heartbeat` comments that keep proxies from timing the stream out. Default 15000. */
  readonly heartbeatMs?: number;
  /** Bytes the response may hold unsent before the client is dropped. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Extra response headers; they may not replace the SSE headers below. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface OpenSseStreamOptions extends SseOptions {
  /** Receives write errors (the stream is aborted with code `write-error`). */
  readonly onError?: (err: unknown) => void;
}

export interface SseStream {
  /** Aborted with an SseAbortError when the client disconnects, is dropped, a write fails, or on close(). */
  readonly signal: AbortSignal;
  /** Writes one frame; false once the stream has ended. Throws only for data that cannot be framed. */
  send(data: unknown, options?: { readonly id?: SseEventId }): boolean;
  comment(text: string): boolean;
  /** Ends the response; idempotent. */
  close(): void;
  /** Resolves once the response has finished or the connection is gone. */
  readonly closed: Promise<void>;
}

const sseHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

export function openSseStream(res: ServerResponse, options: OpenSseStreamOptions = {}): SseStream {
  const { heartbeatMs = 15_000, maxBufferedBytes = 1024 * 1024, headers = {}, onError } = options;
  assertPositiveInteger('heartbeatMs', heartbeatMs);
  assertPositiveInteger('maxBufferedBytes', maxBufferedBytes);
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() in sseHeaders) throw new TypeError(`SSE header ${name} cannot be overridden`);
  }
  if (res.headersSent) throw new Error('openSseStream needs a response whose headers have not been sent');

  const controller = new AbortController();
  // A response already destroyed has emitted (or is about to emit) 'close'; do not wait for it.
  const closed = res.destroyed ? Promise.resolve() : new Promise<void>((resolve) => res.once('close', () => resolve()));
  let heartbeat: NodeJS.Timeout | undefined;

  // Every way the stream ends goes through here exactly once.
  const end = (code: SseAbortCode, cause?: unknown): boolean => {
    if (controller.signal.aborted) return false;
    clearInterval(heartbeat);
    controller.abort(new SseAbortError(code, { cause }));
    return true;
  };

  const fail = (err: unknown): void => {
    // A write that fails after the stream ended is a consequence of that end, not news.
    if (!end('write-error', err)) return;
    onError?.(err);
    res.destroy();
  };

  const write = (frame: string): boolean => {
    if (controller.signal.aborted) return false;
    try {
      res.write(frame, (err) => {
        if (err) fail(err);
      });
    } catch (err) {
      fail(err);
      return false;
    }
    if (res.writableLength > maxBufferedBytes) {
      end('slow-consumer');
      res.destroy();
      return false;
    }
    return !controller.signal.aborted;
  };

  res.on('error', fail);
  res.once('close', () => end(res.writableFinished ? 'closed' : 'client-disconnected'));

  if (res.destroyed) {
    end('client-disconnected');
  } else {
    res.writeHead(200, { ...headers, ...sseHeaders });
    res.flushHeaders();
    heartbeat = setInterval(() => write(sseCommentFrame('heartbeat')), heartbeatMs);
    heartbeat.unref();
  }

  return {
    signal: controller.signal,
    closed,
    send: (data, sendOptions) => !controller.signal.aborted && write(sseDataFrame(data, sendOptions?.id)),
    comment: (text) => !controller.signal.aborted && write(sseCommentFrame(text)),
    close: () => {
      if (end('closed')) res.end();
    },
  };
}

function assertPositiveInteger(name: string, value: number): void {
  if (!(Number.isSafeInteger(value) && value >= 1)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
