import { describe, expect, it } from 'vitest';
import { parseIsoTime } from './parse-iso-time.js';

describe('parseIsoTime', () => {
  it('reads Z and every offset spelling as the same instant', () => {
    const expected = { kind: 'instant', epochMs: Date.UTC(2026, 2, 8, 7, 30) };
    expect(parseIsoTime('2026-03-08T07:30:00Z')).toEqual(expected);
    expect(parseIsoTime('2026-03-08t07:30z')).toEqual(expected);
    expect(parseIsoTime('2026-03-08T02:30-05:00')).toEqual(expected);
    expect(parseIsoTime('2026-03-08T02:30-0500')).toEqual(expected);
    expect(parseIsoTime('2026-03-08 02:30:00.000-05')).toEqual(expected);
  });

  it('reads a time without offset as a wall time, truncating fractions to milliseconds', () => {
    expect(parseIsoTime('2026-03-08T02:30:15.123456789')).toEqual({
      kind: 'wall',
      wall: { year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 15, millisecond: 123 },
    });
  });

  it('keeps two-digit-era years literal rather than shifting them to 1900', () => {
    expect(parseIsoTime('0050-01-01T00:00Z')).toEqual({ kind: 'instant', epochMs: new Date('0050-01-01T00:00:00Z').getTime() });
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseIsoTime('2028-02-29T00:00Z')).toBeDefined();
    expect(parseIsoTime('2100-02-29T00:00Z')).toBeUndefined();
    expect(parseIsoTime('2000-02-29T00:00Z')).toBeDefined();
  });
});
