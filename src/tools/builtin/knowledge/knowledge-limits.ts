// Bounds on what one retrieval index loads, so a misconfigured root cannot exhaust memory at start-up.

export interface KnowledgeLimits {
  /** Larger files are skipped with a warning. */
  readonly maxFileBytes: number;
  /** Files beyond this count are skipped with one warning. */
  readonly maxDocuments: number;
  /** Text beyond this many bytes in total is skipped with one warning. */
  readonly maxTotalBytes: number;
  /** Folders nested deeper are not entered. */
  readonly maxDepth: number;
}

export const defaultKnowledgeLimits: KnowledgeLimits = Object.freeze({
  maxFileBytes: 2 * 1024 * 1024,
  maxDocuments: 10_000,
  maxTotalBytes: 128 * 1024 * 1024,
  maxDepth: 32,
});
