import { describe, expect, it } from 'vitest';
import { decimalText } from './decimal-text.js';

describe('decimalText', () => {
  it.each([
    [0, '0.0'],
    [-0, '0.0'],
    [12, '12.0'],
    [-12, '-12.0'],
    [0.3, '0.3'],
    [99.9999, '99.9999'],
    [-0.0001, '-0.0001'],
    [922337203685477, '922337203685477.0'],
    [-922337203685477.5, '-922337203685477.5'],
  ])('writes %s as decimal("%s")', (value, text) => {
    expect(decimalText(value)).toEqual({ ok: true, text });
  });

  it('refuses more than 4 fractional digits rather than rounding (0.1 + 0.2, 100.00001, 1e-7)', () => {
    for (const value of [0.1 + 0.2, 100.00001, 1e-7, 0.00005]) expect(decimalText(value)).toEqual({ ok: false, problem: 'precision' });
  });

  it("refuses numbers beyond Cedar's decimal range (±922337203685477.5807)", () => {
    for (const value of [922337203685478, -922337203685479, 922337203685477.625, 1e15, 1e21, -1e300]) {
      expect(decimalText(value)).toEqual({ ok: false, problem: 'range' });
    }
  });
});
