import { describe, expect, it } from 'vitest';
import { buildSnippet } from './build-snippet.js';

describe('buildSnippet', () => {
  it('centres on the first whole-word match and marks cut ends', () => {
    const text = `${'lorem ipsum '.repeat(40)}the concatenate word and then cat appears\n\nhere ${'dolor sit '.repeat(40)}`;
    const snippet = buildSnippet(text, ['cat'], 120);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('then cat appears here');
    expect(snippet.length).toBeLessThanOrEqual(122);
  });

  it('starts at the beginning when nothing matches', () => {
    expect(buildSnippet('short text', ['absent'])).toBe('short text');
  });
});
