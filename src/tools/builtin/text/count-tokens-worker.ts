// The threads that count tokens off the event loop under a hard time bound, shared fairly between
// callers; the work itself is count-tokens-requests.ts.
import { siblingModule, WorkerPool, type PoolBounds } from '../../../platform/worker/index.js';

export const TOKEN_ENCODING = 'o200k_base';

export function createCountTokensWorker(timeoutMs: number, bounds: PoolBounds = {}): WorkerPool {
  return new WorkerPool({
    ...bounds,
    handlers: siblingModule('count-tokens-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
