// Bounded, fair off-thread work for any feature: a pool of warm threads running a typed handler module.
export { WorkerPool, type PoolBounds, type WorkerPoolOptions } from './worker-pool.js';
export type { WorkerOutcome } from './worker-outcome.js';
export { siblingModule } from './worker-protocol.js';
