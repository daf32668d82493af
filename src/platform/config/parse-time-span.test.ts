import { describe, expect, it } from 'vitest';
import { parseTimeSpan } from './parse-time-span.js';

describe('parseTimeSpan', () => {
  it('reads hours, minutes and seconds', () => {
    expect(parseTimeSpan('00:30:00')).toBe(30 * 60_000);
    expect(parseTimeSpan('01:02:03')).toBe(3_723_000);
  });

  it('reads a leading day count', () => {
    expect(parseTimeSpan('1.00:00:00')).toBe(86_400_000);
    expect(parseTimeSpan('2.03:04:05')).toBe(2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000);
  });

  it('reads fractions of a second up to seven digits', () => {
    expect(parseTimeSpan('00:00:01.5')).toBe(1_500);
    expect(parseTimeSpan('00:00:00.123')).toBe(123);
    expect(parseTimeSpan('00:00:00.0000001')).toBe(0.0001);
    expect(parseTimeSpan('1.00:00:00.250')).toBe(86_400_250);
  });

  it('accepts the short hh:mm form and surrounding whitespace', () => {
    expect(parseTimeSpan('00:05')).toBe(5 * 60_000);
    expect(parseTimeSpan('  00:00:30 ')).toBe(30_000);
  });

  it('keeps a leading minus sign', () => {
    expect(parseTimeSpan('-00:00:10')).toBe(-10_000);
  });

  it.each([
    '',
    '30',
    '1.2',
    'abc',
    '24:00:00',
    '00:60:00',
    '00:00:60',
    '00:00:00.12345678',
    '00:00.5',
    '1:2:3:4',
    '1.00:00:00:00',
    '+00:00:01',
    '00:00:01 s',
    '99999999.00:00:00',
  ])('rejects %j', (text) => {
    expect(parseTimeSpan(text)).toBeNull();
  });
});
