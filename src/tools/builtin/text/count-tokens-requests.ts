// Runs on the count_tokens worker threads (count-tokens-worker.ts): gpt-tokenizer's byte-pair merge is
// quadratic in the length of one pre-token (64 K of "a" takes seconds), so counting needs the same hard
// bound as regexes. The o200k_base encoder loads (≈0.75 s) when this module does, before the thread
// says it is ready, so the bound never counts it.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const asPlainText = { disallowedSpecial: new Set<string>() };
countTokens('warm up', asPlainText);

export function handle(request: unknown): { tokens: number; characters: number } {
  const { text } = request as { readonly text: string };
  let characters = 0;
  for (const _ of text) characters += 1;
  return { tokens: countTokens(text, asPlainText), characters };
}
