// Fastify's log controller, replaced: one line per answered request (RequestLogLine: method, route
// pattern, status, duration, a digest of the owner, under the request's `reqId`) instead of Fastify's
// two, which carried the whole request and reply for the logger to deep-copy and scan. The other
// lines it writes keep the error (redacted like every logged value) but never a framework object.
// Deliberately never logs the URL (its query can carry a caller's secrets), headers or bodies.
// The same moment feeds the HTTP request histogram when metrics are on (http-request-metrics.ts).
import { hash } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Principal } from '../auth/index.js';
import { REQUEST_ID_LOG_LABEL, RequestLogLine } from '../log/index.js';
import type { HttpRequestMetrics } from './http-request-metrics.js';
import { RequestLogger } from './request-logger.js';
import { routeOf } from './route-config.js';

/** Owner digests by principal: the token cache and anonymous mode hand out the same object per caller. */
const digests = new WeakMap<Principal, string>();

/** A stable pseudonym for an owner id: correlates a caller's lines without writing the id itself. */
export function ownerDigest(principal: Principal): string {
  let digest = digests.get(principal);
  if (digest === undefined) {
    digest = `sha256:${hash('sha256', principal.ownerId, 'base64url').slice(0, 16)}`;
    digests.set(principal, digest);
  }
  return digest;
}

function lineFor(request: FastifyRequest, reply: FastifyReply, route = routeOf(request).url ?? null, requestId: string | null = null): RequestLogLine {
  // Undefined, not null, on routes of plugins registered before authentication (the /docs page).
  const principal = request.principal as Principal | null | undefined;
  return new RequestLogLine(
    request.method,
    route,
    reply.statusCode,
    Math.round(reply.elapsedTime * 100) / 100,
    principal == null ? null : ownerDigest(principal),
    requestId,
  );
}

export class RequestLogController extends LogController {
  readonly #metrics: HttpRequestMetrics | null;

  constructor(metrics: HttpRequestMetrics | null = null) {
    // The label the request line writes its id under when it carries the id itself.
    super({ requestIdLogLabel: REQUEST_ID_LOG_LABEL });
    this.#metrics = metrics;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const options = routeOf(request);
    const route = options.url ?? null;
    this.#metrics?.observe(options, route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (error) reply.log.error({ ...lineFor(request, reply, route), err: error }, 'request errored');
    else {
      // Through the parent with the id in the line when it can (the same bytes): the request's own
      // child logger is then never made for a request that logs nothing else (request-logger.ts).
      const log = reply.log;
      const parent = log instanceof RequestLogger ? log.parentAtSameLevel : undefined;
      if (parent === undefined) log.info(lineFor(request, reply, route), 'request completed');
      else parent.info(lineFor(request, reply, route, request.id), 'request completed');
    }
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log[reply.statusCode >= 500 ? 'error' : 'info']({ ...lineFor(request, reply), err: error }, 'request failed');
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ ...lineFor(request, reply), err: error }, 'response headers could not be written');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method }, 'route not found');
  }
}
