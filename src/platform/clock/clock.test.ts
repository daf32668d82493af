import { describe, expect, it } from 'vitest';
import { randomIds } from './clock.js';

describe('opaque ids', () => {
  it('are 24 URL-safe characters (18 random bytes) and never repeat across many draws', () => {
    const ids = Array.from({ length: 1000 }, () => randomIds.opaque());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('begin with a letter or a digit, never with - (a command line takes that for an option) or _', () => {
    // 1 in 32 ids began with one of them: 20,000 draws would hold about 600.
    const firsts = new Set(Array.from({ length: 20_000 }, () => randomIds.opaque()[0]));
    expect([...firsts].filter((first) => !/[A-Za-z0-9]/.test(first!))).toEqual([]);
    expect(firsts.size).toBe(62);
  });

  it('never come from a used (zeroed) slot of the pool', () => {
    const bytes = Array.from({ length: 300 }, () => Buffer.from(randomIds.opaque(), 'base64url'));
    for (const id of bytes) expect(id).toHaveLength(18);
    // 300 ids × 18 bytes: an all-zero id (a reused, already-zeroed slot) would be 1 in 2^144.
    expect(bytes.some((id) => id.every((byte) => byte === 0))).toBe(false);
  });
});
