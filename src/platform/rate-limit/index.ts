export {
  FixedWindowRateLimiter,
  RATE_LIMIT_WINDOW_MS,
  type FixedWindowRateLimiterOptions,
  type RateLimitDecision,
} from './fixed-window-rate-limiter.js';
export { ConcurrencySlots, type ConcurrencySlotsOptions, type SlotLease } from './concurrency-slots.js';
export { rateLimitedProblem } from './rate-limited-problem.js';
