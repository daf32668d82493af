// Fastify's clientErrorHandler: what Node's HTTP parser refuses before any route runs (a malformed
// request, oversized headers, a request that timed out, a method the parser does not know) is
// answered as a problem document too, its status unchanged, and the connection is closed. A method
// the parser does not know on a path the service serves is 405 with Allow, as for a known method.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { ProblemError, toProblem } from '../problems/index.js';
import { allowedMethods } from './problem-handlers.js';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js';

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^\s?#]{0,2047})[^\s]* HTTP\/1\.[01]\r?$/;

export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection has nothing left to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const line = REQUEST_LINE.exec(requestLine(error));
  const path = line?.[2] ?? '/';
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // The parser gave up before the headers were read: a fresh id, echoed and in the document.
  const requestId = requestIdFrom(undefined);
  this.log.debug({ code: error.code, reqId: requestId }, 'client error');
  const rendered = toProblem(problemFor(this, error, line === null ? undefined : path), path, requestId);
  const body = JSON.stringify(rendered.body);
  const head = [
    `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? ''}`,
    'content-type: application/problem+json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    `${REQUEST_ID_HEADER}: ${requestId}`,
    ...Object.entries(rendered.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/** The first line of what the parser had read (typed as JSON by Fastify, a Buffer at run time). */
function requestLine(error: ConnectionError): string {
  const raw: unknown = error.rawPacket;
  const bytes = Buffer.isBuffer(raw) ? raw : undefined;
  return bytes?.subarray(0, 4096).toString('latin1').split('\n', 1)[0] ?? '';
}

function problemFor(app: FastifyInstance, error: ConnectionError, path: string | undefined): ProblemError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemError('header-fields-too-large', 'The request headers are larger than this service reads.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError('request-timeout', 'The request did not arrive in time.');
    case 'HPE_INVALID_METHOD': {
      const allowed = path === undefined ? [] : allowedMethods(app, path);
      if (allowed.length > 0) {
        return new ProblemError('method-not-allowed', 'This resource does not support that method.', { headers: { allow: allowed.join(', ') } });
      }
      return path === undefined ? malformed() : new ProblemError('not-found', 'No resource exists at this path.');
    }
    default:
      return malformed();
  }
}

const malformed = (): ProblemError => new ProblemError('validation-failed', 'The request is malformed.');
