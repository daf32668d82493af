// The threads that run regex extraction and line diffs off the event loop (a backtracking pattern or a
// large diff can take unbounded time), shared fairly between callers; the work itself is
// extract-and-diff-requests.ts.
import { siblingModule, WorkerPool, type PoolBounds } from '../../../platform/worker/index.js';

export function createExtractAndDiffWorker(timeoutMs: number, bounds: PoolBounds = {}): WorkerPool {
  return new WorkerPool({
    ...bounds,
    handlers: siblingModule('extract-and-diff-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
