// Reciprocal-rank fusion: a document's fused score is the sum over result lists of 1 / (k + rank),
// rank counted from 1. Robust to score scales that differ between queries; k = 60 as in the
// original paper (Cormack et al., 2009). Ties keep first-seen order.

export interface RankedHit {
  readonly id: string;
}

export const RRF_K = 60;

export function fuseByReciprocalRank<H extends RankedHit>(lists: readonly (readonly H[])[], topK: number, k = RRF_K): Array<{ hit: H; score: number }> {
  const fused = new Map<string, { hit: H; score: number; order: number }>();
  for (const list of lists) {
    list.forEach((hit, position) => {
      const contribution = 1 / (k + position + 1);
      const entry = fused.get(hit.id);
      if (entry === undefined) fused.set(hit.id, { hit, score: contribution, order: fused.size });
      else entry.score += contribution;
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, topK)
    .map(({ hit, score }) => ({ hit, score }));
}
