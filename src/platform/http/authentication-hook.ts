// Authenticates every `/api/` route before its body is read; everything else (health, readiness,
// the OpenAPI document and its reference page) is public. Handlers get `request.principal`.
// A callback-style hook: a public route, and a token already verified and unexpired
// (`remembered`), pass straight through, without the promise and the microtask an async hook costs
// on every request; anything else is decided by `authenticate`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../auth/index.js';

export function isApiRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  return url !== undefined && url.startsWith('/api/') && request.routeOptions.config.public !== true;
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
      (error: unknown) => done(error as Error),
    );
  });
}

/** The authenticated caller of an `/api/` route; the hook guarantees it is set. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on a route that is not authenticated');
  return request.principal;
}
