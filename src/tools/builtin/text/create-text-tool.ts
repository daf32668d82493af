// The built-in `text` tool: count_tokens, extract and diff, each run on a small pool of warm worker
// threads under a hard time bound so hostile patterns or inputs cannot stall the event loop, shared
// fairly between callers so one caller's hostile inputs cannot hold up another's. Threads start on
// first use; close() stops them.
import type { PoolBounds } from '../../../platform/worker/index.js';
import { toolFailure, type Tool, type ToolResult } from '../../tool.js';
import { countTokens } from './count-tokens.js';
import { createCountTokensWorker } from './count-tokens-worker.js';
import { diffTexts } from './diff-texts.js';
import { createExtractAndDiffWorker } from './extract-and-diff-worker.js';
import { extractMatches } from './extract-matches.js';
import { DEFAULT_TIMEOUT_MS } from './text-limits.js';
import { textDescriptor } from './text-descriptor.js';

export interface TextToolOptions {
  /** Bound on one operation's run time on its worker; 1000 ms unless set (1 to 60000). */
  readonly timeoutMs?: number;
  /** Threads and waiting bounds of each of its two pools (worker-pool.ts defaults unless set). */
  readonly pool?: PoolBounds;
}

export function createTextTool(options: TextToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new RangeError(`text tool timeoutMs must be an integer from 1 to 60000, got ${timeoutMs}`);
  }
  const extractAndDiff = createExtractAndDiffWorker(timeoutMs, options.pool);
  const tokenizer = createCountTokensWorker(timeoutMs, options.pool);
  return {
    descriptor: textDescriptor,
    invoke(operation, parameters, context): Promise<ToolResult> {
      switch (operation) {
        case 'count_tokens':
          return countTokens(tokenizer, parameters, context);
        case 'extract':
          return extractMatches(extractAndDiff, parameters, context);
        case 'diff':
          return diffTexts(extractAndDiff, parameters, context);
        default:
          return Promise.resolve(
            toolFailure(`unknown operation ${JSON.stringify(operation)}; text accepts count_tokens, extract, diff`),
          );
      }
    },
    async close(): Promise<void> {
      await Promise.all([extractAndDiff.close(), tokenizer.close()]);
    },
  };
}
