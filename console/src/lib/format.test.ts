import { describe, expect, it } from 'vitest';
import { dollars, timeLeft, zoned } from './format';

describe('timeLeft', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('counts down in the two largest units', () => {
    expect(timeLeft(at(2 * 86_400_000 + 3 * 3_600_000 + 5_000), now)).toBe('2 d 3 h left');
    expect(timeLeft(at(23 * 3_600_000 + 59 * 60_000 + 30_000), now)).toBe('23 h 59 min left');
    expect(timeLeft(at(4 * 60_000 + 12_000), now)).toBe('4 min 12 s left');
    expect(timeLeft(at(1_500), now)).toBe('1 s left');
    expect(timeLeft(at(400), now)).toBe('0 s left');
  });

  it('says expired once the deadline passed, and no expiry without one', () => {
    expect(timeLeft(at(0), now)).toBe('expired');
    expect(timeLeft(at(-60_000), now)).toBe('expired');
    expect(timeLeft(null, now)).toBe('no expiry');
  });
});

describe('zoned', () => {
  it('shows an instant as the wall-clock time of the zone, naming the zone', () => {
    expect(zoned('2025-01-15T14:00:00Z', { timeZone: 'America/New_York', locale: 'en-US' })).toBe('Jan 15, 2025, 9:00:00 AM EST (America/New_York)');
    expect(zoned('2025-07-15T14:00:00Z', { timeZone: 'Europe/Berlin', locale: 'en-GB' })).toBe('15 Jul 2025, 16:00:00 CEST (Europe/Berlin)');
  });

  it('gives back what is not an instant as it came', () => {
    expect(zoned('soon')).toBe('soon');
  });
});

describe('dollars', () => {
  it('keeps up to four significant digits below a dollar, so sub-cent spend shows', () => {
    expect(dollars(0.012)).toBe('$0.012');
    expect(dollars(0.0085)).toBe('$0.0085');
    expect(dollars(0.1234567)).toBe('$0.1235');
    expect(dollars(0.000012)).toBe('$0.000012');
  });

  it('shows at least cents, and only cents from a dollar up', () => {
    expect(dollars(0)).toBe('$0.00');
    expect(dollars(0.1)).toBe('$0.10');
    expect(dollars(0.99999)).toBe('$1.00');
    expect(dollars(12.345)).toBe('$12.35');
    expect(dollars(1234.5)).toBe('$1,234.50');
  });

  it('shows a dash for no amount', () => {
    expect(dollars(undefined)).toBe('—');
    expect(dollars(null)).toBe('—');
  });
});
