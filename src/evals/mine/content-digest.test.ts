import { describe, expect, it } from 'vitest';
import { contentDigest } from './content-digest.js';

describe('contentDigest', () => {
  it('is the same for the same JSON value whatever the key order', () => {
    expect(contentDigest({ a: 1, b: [{ x: 'y', z: null }] })).toBe(contentDigest({ b: [{ z: null, x: 'y' }], a: 1 }));
    expect(contentDigest(JSON.parse('{"n": 1.0}'))).toBe(contentDigest({ n: 1 }));
  });

  it('differs when a value, an array order or a key differs', () => {
    const base = contentDigest({ a: [1, 2] });
    expect(contentDigest({ a: [2, 1] })).not.toBe(base);
    expect(contentDigest({ a: [1, '2'] })).not.toBe(base);
    expect(contentDigest({ b: [1, 2] })).not.toBe(base);
    expect(contentDigest({ a: [1, 2], c: null })).not.toBe(base);
  });

  it('cannot be fooled by keys that look like serialized text', () => {
    expect(contentDigest({ 'a":1,"b': 2 })).not.toBe(contentDigest({ a: 1, b: 2 }));
  });
});
