// With tracing on: one SERVER span per HTTP request (`{method} {route}`, HTTP semantic-convention
// attributes, the status when the response ends), continuing the caller's trace when a valid
// `traceparent` came in. The request's work runs in the span's context: entered in onRequest and
// again in preHandler, because the body is read on stream events that do not carry it. Added only
// when tracing is on: with it off, requests pay nothing here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, SpanStatusCode, type Context, type Tracing } from '../tracing/index.js';
import { routeOf } from './route-config.js';

export function installRequestTracing(app: FastifyInstance, tracing: Tracing): void {
  const contexts = new WeakMap<FastifyRequest, Context>();
  app.addHook('onRequest', (request, reply, done) => {
    const route = routeOf(request).url;
    const span = tracing.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, ...(route === undefined ? {} : { 'http.route': route }), 'portcullis.request_id': request.id },
      },
      tracing.extract(request.headers),
    );
    request.traceId = span.spanContext().traceId;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const status = reply.raw.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    reply.raw.once('finish', end);
    reply.raw.once('close', end);
    const context = tracing.contextWith(span);
    contexts.set(request, context);
    tracing.withContext(context, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const context = contexts.get(request);
    if (context === undefined) done();
    else tracing.withContext(context, done);
  });
}
