// The 429 problem for a refused request rate or a full concurrency cap, with its Retry-After header.
import { ProblemError } from '../problems/index.js';

export function rateLimitedProblem(retryAfterSeconds: number, detail?: string): ProblemError {
  if (!Number.isFinite(retryAfterSeconds)) throw new RangeError(`retryAfterSeconds must be finite, got ${retryAfterSeconds}`);
  // Retry-After is a whole number of seconds; never tell a caller to retry at once.
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ProblemError('rate-limited', detail ?? `Too many requests. Retry after ${seconds} seconds.`, {
    headers: { 'retry-after': String(seconds) },
  });
}
