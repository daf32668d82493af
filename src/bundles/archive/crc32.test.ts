import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, tableCrc32 } from './crc32.js';

describe('crc32', () => {
  it('gives the standard check value for "123456789"', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(tableCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('continues incrementally, in the table fallback exactly as natively', () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) & 0xff));
    const whole = zlib.crc32(data);
    expect(tableCrc32(data.subarray(1234), tableCrc32(data.subarray(0, 1234)))).toBe(whole);
    expect(crc32(data.subarray(4000), crc32(data.subarray(0, 4000)))).toBe(whole);
    expect(tableCrc32(Buffer.alloc(0))).toBe(0);
  });
});
