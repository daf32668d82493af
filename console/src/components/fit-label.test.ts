import { describe, expect, it } from 'vitest';
import { ellipsize, wrapLabel } from './fit-label';

// One unit per character: widths read as character counts.
const chars = (text: string): number => [...text].length;

describe('wrapLabel', () => {
  it('keeps a label that fits on one line', () => {
    expect(wrapLabel('draft', 10, 2, chars)).toEqual(['draft']);
  });

  it('breaks after spaces, hyphens and underscores before it breaks inside a word', () => {
    expect(wrapLabel('check the order', 10, 2, chars)).toEqual(['check the', 'order']);
    expect(wrapLabel('score_the_reply', 10, 2, chars)).toEqual(['score_the_', 'reply']);
    expect(wrapLabel('pre-flight-check', 12, 2, chars)).toEqual(['pre-flight-', 'check']);
    expect(wrapLabel('abcdefghijkl', 5, 3, chars)).toEqual(['abcde', 'fghij', 'kl']);
  });

  it('cuts the last line with an ellipsis when lines run out, and no line is wider than asked', () => {
    const lines = wrapLabel('a step name much longer than two short lines', 12, 2, chars);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    for (const line of lines) expect(chars(line)).toBeLessThanOrEqual(12);
  });
});

describe('ellipsize', () => {
  it('leaves text that fits alone and cuts the rest to fit with the ellipsis', () => {
    expect(ellipsize('ConditionalBranch', 17, chars)).toBe('ConditionalBranch');
    expect(ellipsize('ConditionalBranch', 8, chars)).toBe('Conditi…');
  });
});
