import { describe, expect, it } from 'vitest';
import { jsonDepth, parseJsonBody, MAX_JSON_DEPTH } from './json-body-parser.js';
import { ProblemError } from '../problems/index.js';

describe('jsonDepth', () => {
  it('counts the deepest nesting of arrays and objects', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{\\"]]]"}')).toBe(1);
  });
});

describe('parseJsonBody', () => {
  it('parses a body at exactly the depth cap', () => {
    const body = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJsonBody(body)).not.toThrow();
  });

  it('refuses a 10,000-deep body as a validation problem', () => {
    const body = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(() => parseJsonBody(body)).toThrow(ProblemError);
    try {
      parseJsonBody(body);
    } catch (error) {
      expect((error as ProblemError).code).toBe('validation-failed');
    }
  });

  it('refuses __proto__ and constructor.prototype keys', () => {
    expect(() => parseJsonBody('{"__proto__":{"owner":"x"}}')).toThrow(ProblemError);
    expect(() => parseJsonBody('{"constructor":{"prototype":{"x":1}}}')).toThrow(ProblemError);
  });

  it('reads an empty body as no body', () => {
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody(' \n ')).toBeUndefined();
  });

  it('refuses malformed bodies without echoing them', () => {
    for (const body of ['{"a":', '{"a": tru']) {
      try {
        parseJsonBody(body);
        expect.unreachable();
      } catch (error) {
        expect((error as ProblemError).code).toBe('validation-failed');
        expect((error as ProblemError).detail).not.toContain('{"a"');
      }
    }
  });
});
