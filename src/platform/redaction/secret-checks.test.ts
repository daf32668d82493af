import { describe, expect, it } from 'vitest';
import { isPlaceholder, looksGenerated, shannonEntropy } from './secret-checks.js';

describe('isPlaceholder', () => {
  it('recognises empty values, type names, templates, masks and code references', () => {
    for (const value of ['', '  ', 'null', 'undefined', 'String', 'Optional', '${DB_PASSWORD}', '{{ secrets.X }}', '<token>', '$PGPASS', '$', '****', 'xxxx', 'process.env.DB_PASSWORD', 'this.password', '[REDACTED]']) {
      expect(isPlaceholder(value), value).toBe(true);
    }
  });

  it('does not mistake real-looking secrets for placeholders', () => {
    for (const value of ['hunter2', 'Tr0ub4dor&3', 'correct horse', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJx']) expect(isPlaceholder(value), value).toBe(false);
  });
});

describe('shannonEntropy', () => {
  it('is zero for one repeated character and log2(n) for n distinct ones', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBeCloseTo(2);
    expect(shannonEntropy('ab€😀')).toBeGreaterThan(2);
  });
});

describe('looksGenerated', () => {
  it('accepts letters mixed with digits and high-entropy strings, not words or identifiers', () => {
    expect(looksGenerated('Zx81Qw7eRt5yUi3oPa1s')).toBe(true);
    expect(looksGenerated('dXNlcjpwYXNzd29yZHhxcQ')).toBe(true);
    expect(looksGenerated('accessToken')).toBe(false);
    expect(looksGenerated('responsibilities')).toBe(false);
    expect(looksGenerated('undefined')).toBe(false);
  });
});
