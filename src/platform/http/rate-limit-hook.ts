// Applies each route's rate-limit policy after authentication, keyed by the owner id (the remote
// address when there is none) — never by the raw token. Windows live in the storage port, so a
// caller's limit counts across every instance sharing it.
import type { FastifyInstance } from 'fastify';
import type { RateLimitPolicy } from '../config/types.js';
import { rateLimitedProblem } from '../rate-limit/index.js';
import type { RateWindows } from '../storage/index.js';

export function installRateLimits(app: FastifyInstance, rates: RateWindows, permitsPerMinute: Readonly<Record<RateLimitPolicy, number>>): void {
  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config.rateLimit;
    if (policy === undefined) return;
    const key = request.principal?.ownerId ?? `ip:${request.ip}`;
    const verdict = await rates.take(policy, key, permitsPerMinute[policy]);
    if (!verdict.allowed) throw rateLimitedProblem(verdict.retryAfterSeconds, undefined, policy);
  });
}
