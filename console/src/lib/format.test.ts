import { describe, expect, it } from 'vitest';
import { timeLeft } from './format';

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
