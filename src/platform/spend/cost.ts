// Dollar cost of token usage from ChatModel:Pricing (per million tokens). Rounded to a billionth of
// a dollar so sums do not print floating-point noise.
export interface Pricing {
  readonly inputPerMillionTokens: number;
  readonly outputPerMillionTokens: number;
}

export interface Tokens {
  readonly input: number;
  readonly output: number;
}

export function costUsd(tokens: Tokens, pricing: Pricing): number {
  const dollars = (tokens.input * pricing.inputPerMillionTokens + tokens.output * pricing.outputPerMillionTokens) / 1_000_000;
  return Math.round(dollars * 1e9) / 1e9;
}
