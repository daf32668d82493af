import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimeSpan, POSITIVE_TIME_SPAN_PATTERN } from './parse-time-span.js';

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

describe('POSITIVE_TIME_SPAN_PATTERN', () => {
  const pattern = new RegExp(POSITIVE_TIME_SPAN_PATTERN, 'u');
  const digits = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom('0', '0', '1', '2', '3', '5', '6', '7', '9') });
  const optional = (arbitrary: fc.Arbitrary<string>) => fc.oneof(fc.constant(''), arbitrary);
  const timeSpanLike = fc
    .tuple(
      optional(fc.constantFrom(' ', '\t', '\u3000')),
      optional(fc.constant('-')),
      optional(fc.oneof(digits(1, 9), fc.constantFrom('10675199', '10675200', '10675199', '09999999')).map((d) => `${d}.`)),
      digits(1, 3),
      fc.constantFrom(':', ':', '.'),
      digits(1, 3),
      optional(digits(1, 3).map((d) => `:${d}`)),
      optional(digits(1, 8).map((d) => `.${d}`)),
      optional(fc.constantFrom(' ', '\n')),
    )
    .map((parts) => parts.join(''));

  it('accepts exactly the texts parseTimeSpan reads as a positive duration', () => {
    fc.assert(
      fc.property(fc.oneof(timeSpanLike, fc.string({ maxLength: 12 })), (text) => {
        expect(pattern.test(text), JSON.stringify(text)).toBe((parseTimeSpan(text) ?? 0) > 0);
      }),
      { numRuns: 5_000, seed: 22 },
    );
  });

  it('refuses zero, negative and out-of-range spans, and accepts the largest day count', () => {
    for (const text of ['00:00:00', '0.00:00:00.0000000', '-00:01:00', '24:00:00', '00:60:00', '10675200.00:00:00']) expect(pattern.test(text), text).toBe(false);
    for (const text of ['00:00:00.0000001', ' 1.00:00 ', '10675199.23:59:59.9999999', '00000001.00:00:00']) expect(pattern.test(text), text).toBe(true);
  });
});
