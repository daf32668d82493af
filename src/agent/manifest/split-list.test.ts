import { describe, expect, it } from 'vitest';
import { splitList } from './split-list.js';

describe('splitList', () => {
  it.each([
    ['clock, calculator', ['clock', 'calculator']],
    ['clock calculator\tjson\n', ['clock', 'calculator', 'json']],
    [' ,clock,, ,calculator, ', ['clock', 'calculator']],
    ['Bash(git diff:*), Read Grep', ['Bash(git diff:*)', 'Read', 'Grep']],
    ['mcp__files__*, mcp__search', ['mcp__files__*', 'mcp__search']],
    ['', []],
  ])('splits %j into %j', (text, items) => {
    expect(splitList(text)).toEqual(items);
  });
});
