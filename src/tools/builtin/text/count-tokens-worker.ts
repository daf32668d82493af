// The worker that counts tokens off the event loop: gpt-tokenizer's byte-pair merge is quadratic in the
// length of one pre-token (64 K of "a" takes seconds), so counting needs the same hard bound as regexes.
// The o200k_base encoder loads (≈0.75 s) at thread start-up, which the bound does not count.
import { createRequire } from 'node:module';
import { BoundedWorker } from './bounded-worker.js';

export const TOKEN_ENCODING = 'o200k_base';

const script = `
const tokenizer = require(workerData.encodingPath);
const asPlainText = { disallowedSpecial: new Set() };
tokenizer.countTokens('warm up', asPlainText);

function handle(request) {
  let characters = 0;
  for (const _ of request.text) characters += 1;
  return { tokens: tokenizer.countTokens(request.text, asPlainText), characters };
}
`;

export function createCountTokensWorker(timeoutMs: number): BoundedWorker {
  const require = createRequire(import.meta.url);
  return new BoundedWorker({
    script,
    workerData: { encodingPath: require.resolve(`gpt-tokenizer/encoding/${TOKEN_ENCODING}`) },
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
