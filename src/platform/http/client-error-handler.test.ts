import { PassThrough } from 'node:stream';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler } from './client-error-handler.js';

/** A socket stand-in that records what is written and whether it was destroyed. */
function fakeSocket() {
  const stream = new PassThrough();
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('latin1')));
  return { socket: stream as unknown as Socket, written: () => written, stream };
}

const app = { log: { debug: () => undefined } } as unknown as FastifyInstance;
const error = (code: string, raw = ''): ConnectionError =>
  Object.assign(new Error(code), { code, bytesParsed: raw.length, rawPacket: Buffer.from(raw) as unknown as ConnectionError['rawPacket'] });

describe('clientErrorHandler', () => {
  it('answers a request that timed out with a 408 problem and closes the connection', async () => {
    const { socket, written, stream } = fakeSocket();
    clientErrorHandler.call(app, error('ERR_HTTP_REQUEST_TIMEOUT', 'POST /api/bundles HTTP/1.1\r\n'), socket);
    await new Promise((resolve) => stream.once('close', resolve));
    const [head, body] = written().split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(head).toContain('content-type: application/problem+json');
    // No request was read, so no id could be accepted: a fresh one, echoed and in the document.
    const requestId = /\r\nx-request-id: ([0-9a-f-]{36})(\r\n|$)/.exec(head!)?.[1];
    expect(requestId).toBeDefined();
    expect(JSON.parse(body!)).toEqual({
      type: 'urn:portcullis:problem:request-timeout',
      title: 'Request timeout',
      status: 408,
      detail: 'The request did not arrive in time.',
      instance: '/api/bundles',
      traceId: requestId,
    });
  });

  it('does nothing for a connection the client reset', () => {
    const { socket, written } = fakeSocket();
    clientErrorHandler.call(app, error('ECONNRESET'), socket);
    expect(written()).toBe('');
  });

  it('never echoes a request line it cannot read as one', async () => {
    const { socket, written, stream } = fakeSocket();
    clientErrorHandler.call(app, error('HPE_INVALID_METHOD', '<script> /x"y HTTP/1.1\r\n'), socket);
    await new Promise((resolve) => stream.once('close', resolve));
    expect(JSON.parse(written().split('\r\n\r\n')[1]!)).toMatchObject({ status: 400, instance: '/' });
  });
});
