// The built-in `text` tool: count_tokens, extract and diff, each run on a warm worker thread under a hard
// time bound so hostile patterns or inputs cannot stall the event loop. Threads start on first use;
// close() stops them.
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
}

export function createTextTool(options: TextToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new RangeError(`text tool timeoutMs must be an integer from 1 to 60000, got ${timeoutMs}`);
  }
  const extractAndDiff = createExtractAndDiffWorker(timeoutMs);
  const tokenizer = createCountTokensWorker(timeoutMs);
  return {
    descriptor: textDescriptor,
    invoke(operation, parameters, context): Promise<ToolResult> {
      switch (operation) {
        case 'count_tokens':
          return countTokens(tokenizer, parameters, context.signal);
        case 'extract':
          return extractMatches(extractAndDiff, parameters, context.signal);
        case 'diff':
          return diffTexts(extractAndDiff, parameters, context.signal);
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
