import { describe, expect, it } from 'vitest';
import { AuthFailure } from './auth-failure.js';
import { MAX_AUTHORIZATION_LENGTH, parseBearerToken } from './bearer-token.js';

describe('parseBearerToken', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc.def.ghi', 'abc.def.ghi'],
    ['BEARER abc.def.ghi', 'abc.def.ghi'],
    ['Bearer   abc.def-_~+/ghi==  ', 'abc.def-_~+/ghi=='],
  ])('accepts %j', (header, token) => {
    expect(parseBearerToken(header)).toBe(token);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['two tokens', 'Bearer a.b.c d.e.f'],
    ['two comma-separated credentials', 'Bearer a.b.c, Bearer d.e.f'],
    ['a Basic credential', 'Basic dXNlcjpwYXNz'],
    ['a scheme glued to the token', 'Bearera.b.c'],
    ['characters outside token68', 'Bearer a.b.c;x'],
    ['an over-long header', `Bearer ${'a'.repeat(MAX_AUTHORIZATION_LENGTH)}`],
  ])('refuses %s', (_title, header) => {
    expect(() => parseBearerToken(header)).toThrow(AuthFailure);
  });
});
