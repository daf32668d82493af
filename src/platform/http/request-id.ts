// Request ids (DESIGN §12): a caller's `X-Request-Id` is kept when it matches [A-Za-z0-9._:-]{1,128},
// any other value (or none) is replaced by a random UUID (written as one flat string: flat-uuid.ts).
// It is Fastify's request id, so every line of the request's child logger (the request line of
// decision 0602 included) carries it as `reqId`; the hook echoes it on every response: in Fastify's
// headers for an answer Fastify writes, and on the raw response for a stream (`hijackReply`, whose
// writeHead keeps it) — not on the raw response always, since Node's writeHead takes its slow path
// for every response once a raw header is set (decision 3610). Problem documents carry `traceId`: the
// W3C trace id when tracing is on, else this id. The hook also answers requests that arrive while the
// service closes (503 problem). An id that looks like a secret is replaced too: request ids are logged
// as they are.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../problems/index.js';
import { flatRandomUuid } from './flat-uuid.js';
import { containsSecret } from '../redaction/index.js';
import { TRACING_DISABLED, type Tracing } from '../tracing/index.js';
import { installRequestTracing } from './request-tracing.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The W3C trace id of the request's span, set only while tracing is on. */
    traceId: string | null;
  }
}

/** The caller's id when it is acceptable, else a fresh one. */
export function requestIdFrom(header: string | readonly string[] | undefined): string {
  return typeof header === 'string' && VALID_REQUEST_ID.test(header) && !containsSecret(header) ? header : flatRandomUuid();
}

/** Fastify's `genReqId`. */
export function generateRequestId(raw: IncomingMessage): string {
  return requestIdFrom(raw.headers[REQUEST_ID_HEADER]);
}

/** The `traceId` member of this request's problem documents. */
export function traceIdOf(request: FastifyRequest): string {
  return request.traceId ?? request.id;
}

export const SHUTTING_DOWN_DETAIL = 'The service is shutting down; retry the request.';

/**
 * Echoes the id on every response; refuses requests that arrive once the service began closing.
 * With tracing on, each request is a server span first (request-tracing.ts), so its trace id is set
 * before any hook can refuse the request.
 */
export function installRequestIds(app: FastifyInstance, tracing: Tracing = TRACING_DISABLED): void {
  app.decorateRequest('traceId', null);
  app.decorateRequest('matchedRoute', null);
  if (tracing.enabled) installRequestTracing(app, tracing);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new ProblemError('unavailable', SHUTTING_DOWN_DETAIL));
  });
}

/**
 * Takes the raw response over from Fastify (a stream), with the request id it echoes: Fastify's
 * headers, where the hook put the id, are not written for a hijacked reply.
 */
export function hijackReply(reply: FastifyReply): ServerResponse {
  reply.raw.setHeader(REQUEST_ID_HEADER, reply.request.id);
  reply.hijack();
  return reply.raw;
}
