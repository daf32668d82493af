// The worker that runs JMESPath queries and JSON Schema validation off the event loop under a hard time
// bound; the work itself is json-requests.ts.
import { BoundedWorker } from '../text/bounded-worker.js';
import { siblingModule } from '../text/worker-protocol.js';

export function createJsonWorker(timeoutMs: number): BoundedWorker {
  return new BoundedWorker({
    handlers: siblingModule('json-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
