import { describe, expect, it } from 'vitest';
import { decodableUrl } from './decodable-url.js';

describe('decodableUrl', () => {
  it('hands back a URL whose path decodes as the same string', () => {
    for (const url of ['/api/tools/clock', '/api/tools/%C3%A9t%C3%A9', '/api/tools/a%2Fb', '/healthz?x=%FF', '/a#%FF', '/a%25']) {
      expect(decodableUrl(url)).toBe(url);
    }
  });

  it('makes each undecodable segment a NUL-led literal of itself and leaves the others and the query alone', () => {
    expect(decodableUrl('/api/approvals/%FF')).toBe('/api/approvals/%00%25FF');
    expect(decodableUrl('/api/workflows/%C3/runs/%E9%80?limit=%FF')).toBe('/api/workflows/%00%25C3/runs/%00%25E9%2580?limit=%FF');
    expect(decodableUrl('/api/tools/%/invoke')).toBe('/api/tools/%00%25/invoke');
    expect(decodableUrl('/api/tools/a%2')).toBe('/api/tools/%00a%252');
  });

  it('gives every rewritten URL a path that decodes, so the router always routes it', () => {
    for (const url of ['/%FF', '/%ED%A0%80', '/%C0%AF/x', '/%ZZ%', '/%%%/%FF%FE?%']) {
      const path = decodableUrl(url).split('?')[0]!;
      expect(() => decodeURI(path), url).not.toThrow();
      expect(decodeURIComponent(path.split('/')[1]!).startsWith('\u0000'), url).toBe(true);
    }
  });
});
