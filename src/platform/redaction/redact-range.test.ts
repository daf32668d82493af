import { describe, expect, it } from 'vitest';
import { redactSpans } from './redact-range.js';

const spans = (...pairs: [number, number][]) => ({ starts: pairs.map((pair) => pair[0]), ends: pairs.map((pair) => pair[1]) });

describe('redactSpans', () => {
  it('merges overlapping spans into one marker but keeps touching spans apart', () => {
    expect(redactSpans('0123456789', spans([1, 4], [3, 6]), 0, 10)).toBe('0[REDACTED]6789');
    expect(redactSpans('0123456789', spans([1, 3], [3, 5]), 0, 10)).toBe('0[REDACTED][REDACTED]56789');
  });

  it('handles spans in any order', () => {
    expect(redactSpans('0123456789', spans([7, 8], [1, 2], [4, 5]), 0, 10)).toBe('0[REDACTED]23[REDACTED]56[REDACTED]89');
  });

  it('clips spans to the range it returns', () => {
    expect(redactSpans('0123456789', spans([1, 4], [8, 12]), 2, 9)).toBe('[REDACTED]4567[REDACTED]');
    expect(redactSpans('0123456789', spans([0, 2]), 2, 5)).toBe('234');
  });
});
