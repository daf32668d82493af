import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './yaml-nesting.js';

describe('YAML nesting measured before parsing', () => {
  it('counts open flow collections and the block indicators of one line', () => {
    expect(nestsDeeperThan('a: [[[x]]]', 4)).toBe(false);
    expect(nestsDeeperThan('a: [[[[x]]]]', 4)).toBe(true);
    expect(nestsDeeperThan('a: {b: {c: {d: 1}}}', 3)).toBe(true);
    expect(nestsDeeperThan('- - - - x', 3)).toBe(true);
    expect(nestsDeeperThan('- - - x\n- - - y\n', 3)).toBe(false);
  });

  it('ignores brackets in quoted text, comments and block scalars', () => {
    const text = `a: "${'['.repeat(100)}"\nb: '${'{'.repeat(100)}'\n# ${'['.repeat(100)}\nc: |\n  ${'[ - '.repeat(100)}\n`;
    expect(nestsDeeperThan(text, 2)).toBe(false);
  });

  it('stops at the first token past the bound: 40 KB of brackets is refused at once', () => {
    const started = performance.now();
    expect(nestsDeeperThan(`skills: ${'['.repeat(40_000)}`, 32)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
