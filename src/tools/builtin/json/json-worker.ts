// The threads that run JMESPath queries and JSON Schema validation off the event loop under a hard time
// bound, shared fairly between callers; the work itself is json-requests.ts.
import { siblingModule, WorkerPool, type PoolBounds } from '../../../platform/worker/index.js';

export function createJsonWorker(timeoutMs: number, bounds: PoolBounds = {}): WorkerPool {
  return new WorkerPool({
    ...bounds,
    handlers: siblingModule('json-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
