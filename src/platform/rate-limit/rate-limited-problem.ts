// The 429 problem for a refused request rate or a full concurrency cap, with its Retry-After header.
import { ProblemError } from '../problems/index.js';

/** `policy` names the per-caller window that refused (and so its configuration key) in the default detail. */
export function rateLimitedProblem(retryAfterSeconds: number, detail?: string, policy?: string): ProblemError {
  if (!Number.isFinite(retryAfterSeconds)) throw new RangeError(`retryAfterSeconds must be finite, got ${retryAfterSeconds}`);
  // Retry-After is a whole number of seconds; never tell a caller to retry at once.
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const which = policy === undefined ? '' : ` under the '${policy}' rate limit (AppConfig:AI:RateLimits:${policy}:PermitsPerMinute)`;
  return new ProblemError('rate-limited', detail ?? `Too many requests${which}. Retry after ${seconds} seconds.`, {
    headers: { 'retry-after': String(seconds) },
  });
}
