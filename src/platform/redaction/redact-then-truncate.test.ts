import { describe, expect, it } from 'vitest';
import { redactText, redactThenTruncate } from './index.js';

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('redactThenTruncate', () => {
  it('returns the whole redacted text, not truncated, when it fits exactly', () => {
    const redacted = redactText(`id ${githubToken} ok`);
    expect(redactThenTruncate(`id ${githubToken} ok`, bytes(redacted))).toEqual({ text: redacted, truncated: false });
    expect(redactThenTruncate(`id ${githubToken} ok`, bytes(redacted) - 1)).toEqual({ text: redacted.slice(0, -1), truncated: true });
  });

  it('never shows any part of a secret that straddles the cut, at any budget', () => {
    const text = `prefix ${githubToken} and password=hunter2 end`;
    const redacted = redactText(text);
    for (let budget = 0; budget <= bytes(text) + 2; budget += 1) {
      const { text: cut, truncated } = redactThenTruncate(text, budget);
      expect(redacted.startsWith(cut)).toBe(true);
      expect(bytes(cut)).toBeLessThanOrEqual(budget);
      expect(truncated).toBe(cut !== redacted);
      expect(cut).not.toContain('ghp_');
      expect(cut).not.toContain('hunt');
    }
  });

  it('never splits a multi-byte character and keeps the longest prefix that fits', () => {
    const text = 'aé€😀b😀';
    for (let budget = 0; budget <= bytes(text); budget += 1) {
      const { text: cut, truncated } = redactThenTruncate(text, budget);
      expect(text.startsWith(cut)).toBe(true);
      expect(bytes(cut)).toBeLessThanOrEqual(budget);
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
      const nextCodePoint = String.fromCodePoint(text.codePointAt(cut.length) ?? 0);
      if (truncated) expect(bytes(cut) + bytes(nextCodePoint)).toBeGreaterThan(budget);
      expect(truncated).toBe(cut.length < text.length);
    }
  });

  it('counts a lone surrogate as the three bytes of its replacement character', () => {
    expect(redactThenTruncate('a\ud800b', 4)).toEqual({ text: 'a\ud800', truncated: true });
    expect(redactThenTruncate('a\ud800b', 3)).toEqual({ text: 'a', truncated: true });
  });

  it('rounds a fractional budget down and refuses a negative or NaN budget', () => {
    expect(redactThenTruncate('abc', 2.9)).toEqual({ text: 'ab', truncated: true });
    expect(redactThenTruncate('', 0)).toEqual({ text: '', truncated: false });
    expect(() => redactThenTruncate('abc', -1)).toThrow(RangeError);
    expect(() => redactThenTruncate('abc', Number.NaN)).toThrow(RangeError);
  });
});
