// Installs the one error handler and the not-found handler: everything the service answers with an
// error is an RFC 7807 document from the catalog; 5xx causes are logged, never returned.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, PROBLEM_CONTENT_TYPE, toProblem } from '../problems/index.js';
import { mapFrameworkError } from './framework-errors.js';
import { MethodRouter } from './method-router.js';

export function requestPath(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

export function sendProblem(reply: FastifyReply, error: unknown): FastifyReply {
  const rendered = toProblem(error, requestPath(reply.request));
  return reply
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

  const unrouted = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const allowed = routes.allowed(requestPath(request));
    if (allowed.length > 0) {
      return sendProblem(
        reply,
        new ProblemError('method-not-allowed', `This resource does not support ${request.method}.`, {
          headers: { allow: allowed.join(', ') },
        }),
      );
    }
    return sendProblem(reply, new ProblemError('not-found', 'No resource exists at this path.'));
  };
  app.setErrorHandler((error, request, reply) => {
    // No route matched (an unserved method such as QUERY, whose body Fastify checks first): what
    // the body lacked does not matter, the answer is 404 or 405 as for any unrouted request.
    if (request.is404) return unrouted(request, reply);
    const mapped = mapFrameworkError(error, request);
    const rendered = toProblem(mapped, requestPath(request));
    if (rendered.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ problem: rendered.body.type, status: rendered.status }, 'request refused');
    return sendProblem(reply, mapped);
  });

  app.setNotFoundHandler(unrouted);
}
