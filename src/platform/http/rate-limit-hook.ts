// Applies each route's rate-limit policy after authentication, keyed by the owner id (the remote
// address when there is none) — never by the raw token. Windows live in the storage port, so a
// caller's limit counts across every instance sharing it. A callback-style hook: a route without a
// policy passes straight through, and an in-process store's answer is used at once, without a promise
// (immediate-answers.ts, private to the platform). A route whose policy depends on what its body asks
// (the MCP gateway: a `tools/call` is an invocation, anything else a read) is charged once the body is
// parsed, before validation and the handler.
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RateLimitPolicy } from '../config/types.js';
import { rateLimitedProblem } from '../rate-limit/index.js';
import type { RateDecision, RateWindows } from '../storage/index.js';
import { immediateRates } from '../storage/immediate-answers.js';
import { routeOf } from './route-config.js';
import { withHook } from './route-hooks.js';

/** `onRefused` hears each 429 by policy (the rate-limit refusal metric). */
export function installRateLimits(
  app: FastifyInstance,
  rates: RateWindows,
  permitsPerMinute: Readonly<Record<RateLimitPolicy, number>>,
  onRefused?: (policy: RateLimitPolicy) => void,
): void {
  const immediate = immediateRates(rates);
  const charge = (request: FastifyRequest, policy: RateLimitPolicy, done: HookHandlerDoneFunction): void => {
    const key = request.principal?.ownerId ?? `ip:${request.ip}`;
    const decided = (verdict: RateDecision): void => {
      if (verdict.allowed) return done();
      onRefused?.(policy);
      done(rateLimitedProblem(verdict.retryAfterSeconds, undefined, policy));
    };
    if (immediate === undefined) {
      rates.take(policy, key, permitsPerMinute[policy]).then(decided, (error: unknown) => done(error as Error));
      return;
    }
    let verdict: RateDecision;
    try {
      verdict = immediate.take(policy, key, permitsPerMinute[policy]);
    } catch (error) {
      return done(error as Error);
    }
    decided(verdict);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const policy = routeOf(request).rateLimit;
    if (policy === undefined) return done();
    charge(request, policy, done);
  });
  // Only the routes that choose by body get the hook: every other request pays nothing for it.
  app.addHook('onRoute', (route) => {
    const byBody = route.config?.rateLimitByBody;
    if (byBody === undefined) return;
    const hook = (request: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void => charge(request, byBody(request.body), done);
    route.preValidation = withHook(route.preValidation, hook);
  });
}
