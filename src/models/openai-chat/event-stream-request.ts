// One POST to an HTTP(S) endpoint that answers with Server-Sent Events, on node:http with a
// keep-alive agent per endpoint: the body is read from the socket as UTF-8 text and split into events
// by eventsource-parser — no fetch, no web streams, so an open call costs a socket, a request, a
// response and a parser (about 11 KiB of heap). Aborting `signal` destroys the request (and the
// socket); a consumer that stops reading early does the same. A non-2xx answer, a failed
// connection and a body that breaks off are UpstreamHttpErrors; the response body of an error
// status is discarded unread (it may echo the credentials). Redirects are not followed.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { createParser } from 'eventsource-parser';
import { abortReason, throwIfAborted } from '../../platform/abort/index.js';
import { UpstreamHttpError } from '../upstream-http-error.js';

export interface EventStreamEndpoint {
  readonly url: URL;
  readonly agent: HttpAgent;
  readonly request: typeof httpRequest;
}

export interface EventStreamResponse {
  readonly status: number;
  /** Lower-cased response headers (computed when asked). */
  readonly headers: () => Readonly<Record<string, string>>;
  /** Each event's `data`, in order; ends with the body. */
  readonly events: () => AsyncGenerator<string>;
}

export function eventStreamEndpoint(url: string): EventStreamEndpoint {
  const parsed = new URL(url);
  const https = parsed.protocol === 'https:';
  return { url: parsed, agent: https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }), request: https ? httpsRequest : httpRequest };
}

/** Sends `body`; resolves once a 2xx status line and headers arrived. */
export async function postForEventStream(
  endpoint: EventStreamEndpoint,
  headers: OutgoingHttpHeaders,
  body: string,
  signal: AbortSignal,
): Promise<EventStreamResponse> {
  throwIfAborted(signal);
  let request!: ClientRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request = endpoint.request(endpoint.url, { method: 'POST', agent: endpoint.agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, resolve);
    // Aborting destroys the request without an error of its own (the call knows why it aborted): an
    // error handed to destroy() can surface later on a socket or response nobody listens to any more.
    const onAbort = (): void => {
      request.destroy();
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => signal.removeEventListener('abort', onAbort));
    request.on('error', (error) => reject(signal.aborted ? abortReason(signal) : new UpstreamHttpError(undefined, {}, error)));
    request.end(body);
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.resume();
    throw new UpstreamHttpError(status, lowerCased(response.headers));
  }
  return { status, headers: () => lowerCased(response.headers), events: () => readEvents(request, response, signal) };
}

async function* readEvents(request: ClientRequest, response: IncomingMessage, signal: AbortSignal): AsyncGenerator<string> {
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => void pending.push(event.data) });
  const body = decoded(response);
  body.setEncoding('utf8');
  try {
    for await (const text of body as AsyncIterable<string>) {
      parser.feed(text);
      for (let i = 0; i < pending.length; i += 1) yield pending[i]!;
      pending.length = 0;
    }
  } catch (error) {
    throwIfAborted(signal);
    throw new UpstreamHttpError(response.statusCode, lowerCased(response.headers), error);
  } finally {
    // Stopped early or failed: nothing more is read from this connection, so it is closed now.
    if (!response.complete) request.destroy();
  }
  // A response that was complete when the call aborted ends cleanly; the call still ends aborted.
  throwIfAborted(signal);
}

/** We ask for identity; a server that compresses anyway is decoded as fetch would. */
function decoded(response: IncomingMessage): Readable {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip()
    : encoding === 'deflate' ? createInflate()
    : encoding === 'br' ? createBrotliDecompress()
    : undefined;
  return decoder === undefined ? response : pipeline(response, decoder, () => undefined);
}

function lowerCased(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}
