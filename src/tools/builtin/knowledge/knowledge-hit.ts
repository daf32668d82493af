// One search result, as the retrieval indexes return it.

export interface KnowledgeHit {
  readonly id: string;
  readonly title: string;
  /** BM25 score (higher is better), comparable only within one search. */
  readonly score: number;
  /** A short whitespace-collapsed excerpt around the first matched term. */
  readonly snippet: string;
  /** The whole document text, for callers such as the workflow RetrievalPlan step; the tool omits it. */
  readonly text: string;
}
