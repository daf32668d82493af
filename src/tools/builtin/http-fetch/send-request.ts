// One HTTP exchange with no redirect handling, connected to an already-vetted address: the request
// keeps the URL's host name for Host and TLS SNI, but its socket's lookup answers only that address.
// Reads at most `maxBytes` of body, then stops and says so. (Also how webhooks are delivered.)
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

export interface SendRequestOptions {
  readonly url: URL;
  readonly method: 'GET' | 'HEAD' | 'POST';
  /** Sent as the request body (POST). */
  readonly body?: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  /** Normalized host (no brackets): used for Host and SNI. */
  readonly host: string;
  /** The vetted address the socket must connect to. */
  readonly address: string;
  readonly family: 4 | 6;
  readonly maxBytes: number;
  readonly signal: AbortSignal;
}

export interface HopResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly truncated: boolean;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function sendRequest(options: SendRequestOptions): Promise<HopResponse> {
  const { url, address, family } = options;
  const pinned = (_hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    if (lookupOptions.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const requestOptions: RequestOptions & { servername?: string } = {
    method: options.method,
    hostname: options.host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: options.headers,
    agent: false, // a fresh connection per hop: never a pooled socket to some other address
    lookup: pinned,
    signal: options.signal,
  };
  const secure = url.protocol === 'https:';
  if (secure && isIP(options.host) === 0) requestOptions.servername = options.host;

  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (!settled) {
        settled = true;
        outcome();
      }
    };
    const request = (secure ? httpsRequest : httpRequest)(requestOptions, (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      let truncated = false;
      const done = (): void =>
        finish(() => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, length), truncated }));
      response.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = options.maxBytes - length;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          length += room;
          truncated = true;
          done();
          response.destroy(); // stop reading: the rest is never downloaded
          return;
        }
        chunks.push(chunk);
        length += chunk.length;
      });
      response.on('end', done);
      response.on('error', (error) => finish(() => reject(error)));
      response.on('close', () => finish(() => reject(new Error('response closed early'))));
    });
    request.on('error', (error) => finish(() => reject(error)));
    request.end(options.body);
  });
}
