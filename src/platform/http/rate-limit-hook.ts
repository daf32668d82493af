// Applies each route's rate-limit policy after authentication, keyed by the owner id (the remote
// address when there is none) — never by the raw token.
import type { FastifyInstance } from 'fastify';
import type { RateLimitPolicy } from '../config/types.js';
import { rateLimitedProblem, type FixedWindowRateLimiter } from '../rate-limit/index.js';

export function installRateLimits(
  app: FastifyInstance,
  limiters: Readonly<Record<RateLimitPolicy, FixedWindowRateLimiter>>,
): void {
  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config.rateLimit;
    if (policy === undefined) return;
    const key = request.principal?.ownerId ?? `ip:${request.ip}`;
    const verdict = limiters[policy].take(key);
    if (!verdict.allowed) throw rateLimitedProblem(verdict.retryAfterSeconds, undefined, policy);
  });
}
