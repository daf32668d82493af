import { describe, expect, it } from 'vitest';
import { flatRandomUuid } from './flat-uuid.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('flatRandomUuid', () => {
  it('writes version 4 UUIDs, all different, across many draws of randomness', () => {
    const ids = Array.from({ length: 5_000 }, () => flatRandomUuid());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads every random digit over the whole hex alphabet (no position fixed or reused)', () => {
    const ids = Array.from({ length: 2_000 }, () => flatRandomUuid());
    const fixed = new Set([8, 13, 14, 18, 23]); // the dashes and the version digit
    for (let position = 0; position < 36; position += 1) {
      if (fixed.has(position)) continue;
      const seen = new Set(ids.map((id) => id[position]));
      // The variant digit takes 8, 9, a or b; every other random digit all sixteen.
      expect(seen.size, `position ${position}`).toBe(position === 19 ? 4 : 16);
    }
    // Consecutive ids share no 16-digit run: each takes fresh bytes.
    for (let i = 1; i < ids.length; i += 1) expect(ids[i]?.slice(19)).not.toBe(ids[i - 1]?.slice(19));
  });
});
