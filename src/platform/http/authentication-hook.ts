// Authenticates every `/api/` route (and a route that asks for a bearer token elsewhere: `/mcp`)
// before its body is read; everything else (health, readiness, the OpenAPI document and its reference
// page, the protected-resource metadata) is public. Handlers get `request.principal`.
// A callback-style hook: a public route, and a token already verified and unexpired
// (`remembered`), pass straight through, without the promise and the microtask an async hook costs
// on every request; anything else is decided by `authenticate`. A route that names its RFC 9728
// metadata document gets it in the 401's challenge, so an OAuth client can find where to sign in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../auth/index.js';
import { isProblemError, ProblemError } from '../problems/index.js';
import { routeOf } from './route-config.js';

export function isApiRoute(request: FastifyRequest): boolean {
  const route = routeOf(request);
  const url = route.url;
  if (url === undefined || route.public === true) return false;
  return url.startsWith('/api/') || route.bearer === true;
}

export function installAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isApiRoute(request)) return done();
    const authorization = request.headers.authorization;
    const known = authenticator.remembered(authorization);
    if (known !== undefined) {
      request.principal = known;
      return done();
    }
    authenticator.authenticate(authorization).then(
      (principal) => {
        request.principal = principal;
        done();
      },
      (error: unknown) => done(withResourceMetadata(request, error) as Error),
    );
  });
}

/** RFC 9728 §5.1: `Bearer resource_metadata="…"` first, then whatever the refusal said (`error="invalid_token"`). */
function withResourceMetadata(request: FastifyRequest, error: unknown): unknown {
  const metadata = routeOf(request).resourceMetadata;
  if (metadata === undefined || !isProblemError(error) || error.code !== 'unauthorized') return error;
  const rest = (error.headers['www-authenticate'] ?? 'Bearer').replace(/^Bearer\s*/, '');
  const challenge = `Bearer resource_metadata="${metadata(request)}"${rest === '' ? '' : `, ${rest}`}`;
  return new ProblemError('unauthorized', error.detail, { headers: { ...error.headers, 'www-authenticate': challenge } });
}

/** The authenticated caller of an `/api/` route; the hook guarantees it is set. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on a route that is not authenticated');
  return request.principal;
}
