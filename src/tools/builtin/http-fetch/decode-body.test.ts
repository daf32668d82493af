import { describe, expect, it } from 'vitest';
import { decodeBody } from './decode-body.js';

describe('decodeBody', () => {
  it('decodes UTF-8 text and drops a character cut in half by the size cap', () => {
    const bytes = Buffer.from('héllo €', 'utf8');
    expect(decodeBody(bytes, 'text/plain', false)).toEqual({ body: 'héllo €', bodyEncoding: 'text' });
    expect(decodeBody(bytes.subarray(0, bytes.length - 1), 'text/plain', true)).toEqual({ body: 'héllo ', bodyEncoding: 'text' });
  });

  it('honours a declared charset', () => {
    expect(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=ISO-8859-1', false).body).toBe('café');
  });

  it('falls back to base64 for bytes that are not text', () => {
    expect(decodeBody(Buffer.from([0xff, 0xfe, 0x00]), undefined, false)).toEqual({ body: '//4A', bodyEncoding: 'base64' });
    expect(decodeBody(Buffer.from('a\u0000b'), 'text/plain', false).bodyEncoding).toBe('base64');
  });
});
