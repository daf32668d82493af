// Applies each route's rate-limit policy after authentication, keyed by the owner id (the remote
// address when there is none) — never by the raw token. A callback-style hook: a route without a
// policy passes straight through; a verdict may come back now or as a promise (a shared store).
import type { FastifyInstance } from 'fastify';
import type { RateLimitPolicy } from '../config/types.js';
import { rateLimitedProblem, type FixedWindowRateLimiter } from '../rate-limit/index.js';

type Verdict = ReturnType<FixedWindowRateLimiter['take']>;

export function installRateLimits(
  app: FastifyInstance,
  limiters: Readonly<Record<RateLimitPolicy, FixedWindowRateLimiter>>,
): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const policy = request.routeOptions.config.rateLimit;
    if (policy === undefined) return done();
    const key = request.principal?.ownerId ?? `ip:${request.ip}`;
    const judge = (verdict: Awaited<Verdict>): void => done(verdict.allowed ? undefined : rateLimitedProblem(verdict.retryAfterSeconds));
    let verdict: Verdict | Promise<Awaited<Verdict>>;
    try {
      verdict = limiters[policy].take(key);
    } catch (error) {
      return done(error as Error);
    }
    if (verdict instanceof Promise) verdict.then(judge, (error: unknown) => done(error as Error));
    else judge(verdict);
  });
}
