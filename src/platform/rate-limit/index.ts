export { ConcurrencySlots, type ConcurrencySlotsOptions, type SlotLease } from './concurrency-slots.js';
export { SharedSlots, type SharedSlotsOptions } from './shared-slots.js';
export { rateLimitedProblem } from './rate-limited-problem.js';
