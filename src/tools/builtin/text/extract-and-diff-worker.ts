// The worker that runs regex extraction and line diffs off the event loop (a backtracking pattern or a
// large diff can take unbounded time); the work itself is extract-and-diff-requests.ts.
import { BoundedWorker } from './bounded-worker.js';
import { siblingModule } from './worker-protocol.js';

export function createExtractAndDiffWorker(timeoutMs: number): BoundedWorker {
  return new BoundedWorker({
    handlers: siblingModule('extract-and-diff-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
