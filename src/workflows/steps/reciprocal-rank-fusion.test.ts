import { describe, expect, it } from 'vitest';
import { fuseByReciprocalRank, RRF_K } from './reciprocal-rank-fusion.js';

describe('fuseByReciprocalRank', () => {
  it('sums 1/(k + rank) over the lists, best first, and keeps topK', () => {
    const fused = fuseByReciprocalRank([[{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]], 2);
    expect(fused.map((f) => f.hit.id)).toEqual(['b', 'a']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 1));
  });

  it('breaks ties by first appearance', () => {
    expect(fuseByReciprocalRank([[{ id: 'x' }], [{ id: 'y' }]], 5).map((f) => f.hit.id)).toEqual(['x', 'y']);
  });
});
