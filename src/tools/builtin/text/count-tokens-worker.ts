// The worker that counts tokens off the event loop under a hard time bound; the work itself is
// count-tokens-requests.ts.
import { BoundedWorker } from './bounded-worker.js';
import { siblingModule } from './worker-protocol.js';

export const TOKEN_ENCODING = 'o200k_base';

export function createCountTokensWorker(timeoutMs: number): BoundedWorker {
  return new BoundedWorker({
    handlers: siblingModule('count-tokens-requests', import.meta.url),
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
