// What a route declares about itself: public or authenticated, which rate-limit policy it draws
// from, and which status an oversized body earns. The hooks read these; handlers never re-check.
// `routeOf` reads them once per request: Fastify builds `request.routeOptions` anew on every read (a
// dozen fields, a constraint lookup), and a request's hooks and request line read it six times.
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { RateLimitPolicy } from '../config/types.js';
import type { Principal } from '../auth/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (`/healthz`, `/readyz`, `/openapi.json`, `/docs`). */
    readonly public?: boolean;
    /** A bearer token needed outside `/api/` (the MCP gateway's `/mcp`). */
    readonly bearer?: boolean;
    /** RFC 9728: the protected-resource metadata URL a 401 of this route names in its challenge. */
    readonly resourceMetadata?: (request: FastifyRequest) => string;
    /** Per-caller fixed-window policy applied after authentication. */
    readonly rateLimit?: RateLimitPolicy;
    /** The policy chosen from the parsed body (one route, several kinds of message: the MCP gateway). */
    readonly rateLimitByBody?: (body: unknown) => RateLimitPolicy;
    /** 413 only where SPEC.md lists it (direct invocation); everywhere else an oversized body is 400. */
    readonly oversizeStatus?: 400 | 413;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public route. */
    principal: Principal | null;
    /** The matched route's config, once read (routeOf). */
    matchedRoute: MatchedRoute | null;
  }
}

/** A route's config with the pattern and method Fastify adds to it; no `url` when no route matched. */
export type MatchedRoute = Readonly<FastifyContextConfig> & { readonly url?: string; readonly method?: string | readonly string[] };

const NO_ROUTE: MatchedRoute = Object.freeze({});

/** The request's route config, its `url` (the pattern) and `method` included, read once per request. */
export function routeOf(request: FastifyRequest): MatchedRoute {
  if (request.matchedRoute !== null && request.matchedRoute !== undefined) return request.matchedRoute;
  // Fastify's own 404 context may have no config at all.
  const config: MatchedRoute | undefined = request.routeOptions.config;
  return (request.matchedRoute = config ?? NO_ROUTE);
}
