// The Scripted model's token accounting (DESIGN §8): characters / 4, rounded up.
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}
