// Installs the one error handler and the not-found handler: everything the service answers with an
// error is an RFC 7807 document from the catalog; 5xx causes are logged, never returned.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, PROBLEM_CONTENT_TYPE, toProblem } from '../problems/index.js';
import { mapFrameworkError } from './framework-errors.js';
import { MethodRouter } from './method-router.js';
import { REQUEST_ID_HEADER, traceIdOf } from './request-id.js';
import { routeOf } from './route-config.js';

/** The path the router was handed (an undecodable segment already made a NUL-led literal: decodable-url.ts). */
export function requestPath(request: FastifyRequest): string {
  return pathOf(request.url);
}

/** The path as the caller sent it: what a problem's `instance` echoes. */
function sentPath(request: FastifyRequest): string {
  return pathOf(request.originalUrl);
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function sendProblem(reply: FastifyReply, error: unknown): FastifyReply {
  const request = reply.request;
  const rendered = toProblem(error, sentPath(request), traceIdOf(request));
  // Also here: router errors (bad URLs) are answered before any hook runs.
  return reply
    .header(REQUEST_ID_HEADER, request.id)
    .code(rendered.status)
    .headers(rendered.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send(Buffer.from(JSON.stringify(rendered.body)));
}

const methodRouters = new WeakMap<FastifyInstance, MethodRouter>();

/** Methods the app serves at this path (sorted; empty when the path is unknown), for 405 answers. */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  return methodRouters.get(app)?.allowed(path) ?? [];
}

export function installProblemHandlers(app: FastifyInstance): void {
  const routes = new MethodRouter();
  methodRouters.set(app, routes);
  app.addHook('onRoute', (route) => routes.add(route.method, route.url));

  const notAllowed = (request: FastifyRequest, allowed: readonly string[]): ProblemError =>
    new ProblemError('method-not-allowed', `This resource does not support ${request.method}.`, { headers: { allow: allowed.join(', ') } });
  /** 405 with `Allow` when the path is known under other methods, else 404. */
  const unmatched = (request: FastifyRequest): ProblemError => {
    const allowed = routes.allowed(requestPath(request));
    return allowed.length > 0 ? notAllowed(request, allowed) : new ProblemError('not-found', 'No resource exists at this path.');
  };
  // A path the router gave to a less specific route of this method (`GET /api/workflows/validate` to
  // `GET /api/workflows/:workflowId`) belongs to its own route: 405 with its methods, before any
  // authentication, as for a path no route of this method matched.
  app.addHook('onRequest', (request, _reply, done) => {
    const pattern = routeOf(request).url;
    const allowed = pattern === undefined ? null : routes.shadowedBy(pattern, requestPath(request));
    done(allowed === null ? undefined : notAllowed(request, allowed));
  });

  app.setErrorHandler((error, request, reply) => {
    // A request no route matched is answered as such, even when reading its body failed first
    // (Fastify refuses a QUERY without Content-Type before the not-found handler runs).
    const mapped = request.is404 ? unmatched(request) : mapFrameworkError(error, request);
    const rendered = toProblem(mapped, sentPath(request));
    if (rendered.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ problem: rendered.body.type, status: rendered.status }, 'request refused');
    return sendProblem(reply, mapped);
  });

  app.setNotFoundHandler((request, reply) => sendProblem(reply, unmatched(request)));
}
