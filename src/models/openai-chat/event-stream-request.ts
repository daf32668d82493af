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
  type RequestOptions,
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
  /** node:http's options for a POST to `url`, made once (not from the URL on every call). */
  readonly options: Readonly<RequestOptions>;
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
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  // What node:http would take from the URL (urlToHttpOptions), once: brackets off an IPv6 host.
  const hostname = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const options: RequestOptions = {
    protocol: parsed.protocol,
    hostname,
    ...(parsed.port === '' ? {} : { port: Number(parsed.port) }),
    path: `${parsed.pathname}${parsed.search}`,
    method: 'POST',
    agent,
    ...(parsed.username === '' && parsed.password === '' ? {} : { auth: `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` }),
  };
  return { url: parsed, agent, request: https ? httpsRequest : httpRequest, options };
}

/**
 * The request's headers as node:http's raw list (name, value, …), which it stores as given (each name
 * and value still validated) instead of through setHeader one by one: what setHeader would have kept —
 * the Host header it would add, then `headers`, a later name replacing an earlier one in any case —
 * then the body's length.
 */
function headerList(endpoint: EventStreamEndpoint, headers: OutgoingHttpHeaders, contentLength: number): string[] {
  const fields = new Map<string, readonly [string, number | string | readonly string[]]>([['host', ['host', endpoint.url.host]]]);
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) fields.set(name.toLowerCase(), [name, value]);
  }
  fields.set('content-length', ['content-length', contentLength]);
  const list: string[] = [];
  for (const [name, value] of fields.values()) {
    if (typeof value === 'object') for (const item of value) list.push(name, item);
    else list.push(name, String(value));
  }
  return list;
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
    request = endpoint.request({ ...endpoint.options, headers: headerList(endpoint, headers, Buffer.byteLength(body)) }, resolve);
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
  const encoding = contentEncoding(response.rawHeaders);
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip()
    : encoding === 'deflate' ? createInflate()
    : encoding === 'br' ? createBrotliDecompress()
    : undefined;
  return decoder === undefined ? response : pipeline(response, decoder, () => undefined);
}

/**
 * Content-Encoding as `response.headers` would give it (trimmed, lower-cased; repeated fields joined
 * with ", "), read from the raw list: asking `headers` builds the whole object, on every call.
 */
function contentEncoding(raw: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === 16 && raw[index]!.toLowerCase() === 'content-encoding') value = value === undefined ? raw[index + 1]! : `${value}, ${raw[index + 1]!}`;
  }
  return value?.trim().toLowerCase();
}

function lowerCased(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}
