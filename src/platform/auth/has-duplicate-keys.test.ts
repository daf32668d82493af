import { describe, expect, it } from 'vitest';
import { hasDuplicateKeys } from './has-duplicate-keys.js';

describe('duplicate member names in JSON text', () => {
  it.each([
    ['a top-level name twice', '{"sub":"a","sub":"b"}'],
    ['a name twice, once escaped', '{"exp":1,"\\u0065xp":2}'],
    ['a name twice in a nested object', '{"a":{"x":1,"y":[1,{"z":1,"z":2}]},"b":1}'],
    ['a name twice after values that look like names', '{"a":"b","c":["a","a"],"a":0}'],
  ])('finds %s', (_title, json) => {
    expect(hasDuplicateKeys(json)).toBe(true);
  });

  it.each([
    ['distinct names', '{"sub":"a","exp":1,"roles":["a","a"]}'],
    ['the same name in sibling objects', '{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":1}]}'],
    ['names differing only after unescaping elsewhere', '{"a\\"b":1,"a":2,"b":3}'],
    ['strings holding quotes, brackets and commas', '{"a":"\\"x\\":1,{[","b":"}],","x":1}'],
    ['an array at the top', '[{"a":1},{"a":1}]'],
  ])('passes %s', (_title, json) => {
    expect(hasDuplicateKeys(json)).toBe(false);
  });
});
