import { describe, expect, it } from 'vitest';
import { findPartialAnchor } from './partial-anchor.js';

describe('findPartialAnchor', () => {
  it('finds the earliest suffix that may grow into an anchor, case-insensitively', () => {
    expect(findPartialAnchor('my token is GH', 0)?.start).toBe(12);
    expect(findPartialAnchor('header -----BEG', 0)?.start).toBe(7);
    expect(findPartialAnchor('x Authoriz', 0)?.rules.map((rule) => rule.id)).toEqual(['authorization-header']);
  });

  it('finds nothing when the text ends in a character no anchor starts with, or before `from`', () => {
    expect(findPartialAnchor('all done.', 0)).toBeUndefined();
    expect(findPartialAnchor('ends with gh', 12)).toBeUndefined();
  });
});
