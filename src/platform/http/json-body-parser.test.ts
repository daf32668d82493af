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

  it('refuses __proto__ and constructor.prototype keys, saying that is what it refuses', () => {
    for (const body of ['{"__proto__":{"owner":"x"}}', '{"constructor":{"prototype":{"x":1}}}']) {
      expect(() => parseJsonBody(body)).toThrow(ProblemError);
      try {
        parseJsonBody(body);
      } catch (error) {
        expect((error as ProblemError).detail).toBe('The JSON body has a "__proto__" key (or "constructor" with "prototype"); such keys are refused.');
      }
    }
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', () => {
    const body = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(() => parseJsonBody(body)).toThrow('The request body is not valid UTF-8.');
    expect(parseJsonBody(Buffer.from('{"name":"é"}'))).toEqual({ name: 'é' });
  });

  it('refuses lone surrogates written as escapes, in values and keys, and keeps escaped pairs', () => {
    const refused = 'The JSON body has a string with a lone surrogate (an unpaired \\uD800–\\uDFFF escape); it is not text.';
    for (const body of ['{"a":"x\\ud800"}', '{"a":["\\udc00y"]}', '{"\\ud83d":1}', '{"a":"\\udc00\\ud83d"}']) {
      expect(() => parseJsonBody(body), body).toThrow(refused);
    }
    expect(parseJsonBody('{"a":"\\ud83d\\ude00"}')).toEqual({ a: '😀' });
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
