import { describe, expect, it } from 'vitest';
import { parseJsonc } from './parse-jsonc.js';

describe('parseJsonc', () => {
  it('parses plain JSON unchanged', () => {
    expect(parseJsonc('{"a": [1, "b", true, null]}')).toEqual({ a: [1, 'b', true, null] });
  });

  it('ignores line and block comments', () => {
    const text = '{\n  // a comment\n  "a": 1, /* another\n one */ "b": 2\n}';
    expect(parseJsonc(text)).toEqual({ a: 1, b: 2 });
  });

  it('allows trailing commas in objects and arrays', () => {
    expect(parseJsonc('{"a": [1, 2, ], "b": {"c": 3, /* x */ }, }')).toEqual({ a: [1, 2], b: { c: 3 } });
  });

  it('leaves comment markers and commas inside strings alone', () => {
    expect(parseJsonc('{"url": "http://x/*y*/", "s": "a,]\\"//"}')).toEqual({ url: 'http://x/*y*/', s: 'a,]"//' });
  });

  it('ignores a leading byte-order mark', () => {
    expect(parseJsonc('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('still rejects malformed JSON', () => {
    expect(() => parseJsonc('{"a": }')).toThrow(SyntaxError);
    expect(() => parseJsonc("{'a': 1}")).toThrow(SyntaxError);
    expect(() => parseJsonc('{"a": 1 /* unterminated')).toThrow(SyntaxError);
  });
});
