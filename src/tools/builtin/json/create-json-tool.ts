// The built-in `json` tool: JMESPath `query` and JSON Schema `validate`, run on a small pool of warm
// worker threads under a hard time bound because both can be made to run for seconds, shared fairly
// between callers. Threads start on first use; close() stops them.
import type { PoolBounds } from '../../../platform/worker/index.js';
import { toolFailure, type Tool, type ToolResult } from '../../tool.js';
import { createJsonWorker } from './json-worker.js';
import { DEFAULT_TIMEOUT_MS } from './json-limits.js';
import { jsonDescriptor } from './json-descriptor.js';
import { queryJson } from './query-json.js';
import { validateJson } from './validate-json.js';

export interface JsonToolOptions {
  /** Bound on one operation's run time on the worker; 1000 ms unless set (1 to 60000). */
  readonly timeoutMs?: number;
  /** Threads and waiting bounds of its pool (worker-pool.ts defaults unless set). */
  readonly pool?: PoolBounds;
}

export function createJsonTool(options: JsonToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new RangeError(`json tool timeoutMs must be an integer from 1 to 60000, got ${timeoutMs}`);
  }
  const pool = createJsonWorker(timeoutMs, options.pool);
  return {
    descriptor: jsonDescriptor,
    invoke(operation, parameters, context): Promise<ToolResult> {
      switch (operation) {
        case 'query':
          return queryJson(pool, parameters, context);
        case 'validate':
          return validateJson(pool, parameters, context);
        default:
          return Promise.resolve(toolFailure(`unknown operation ${JSON.stringify(operation)}; json accepts query, validate`));
      }
    },
    close: () => pool.close(),
  };
}
