import { describe, expect, it } from 'vitest';
import { isoInstant } from './iso-instant.js';

describe('isoInstant', () => {
  it('formats epoch milliseconds as Date#toISOString does, again and again', () => {
    for (const ms of [0, 1_764_039_033_123, -1, 8.64e15, 1_764_039_033_123]) expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
  });

  it('stays correct past the number of instants it remembers', () => {
    const instants = Array.from({ length: 10_000 }, (_, i) => 1_700_000_000_000 + i * 1_001);
    for (const ms of instants) expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    for (const ms of instants.slice(0, 50)) expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
  });

  it('throws for an instant Date cannot represent, as toISOString does', () => {
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
    expect(() => isoInstant(8.64e15 + 1)).toThrow(RangeError);
  });
});
