import { describe, expect, it } from 'vitest';
import { parseIpAddress, sameIpAddress } from './ip-address.js';

describe('parseIpAddress', () => {
  it('compares IPv6 spellings by value', () => {
    const pairs: [string, string][] = [
      ['::1', '0:0:0:0:0:0:0:1'],
      ['[::1]', '::0001'],
      ['::ffff:127.0.0.1', '::ffff:7f00:1'],
      ['1::1.2.3.4', '1:0:0:0:0:0:102:304'],
      ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ];
    for (const [a, b] of pairs) expect(sameIpAddress(parseIpAddress(a)!, parseIpAddress(b)!)).toBe(true);
    expect(sameIpAddress(parseIpAddress('127.0.0.1')!, parseIpAddress('::ffff:127.0.0.1')!)).toBe(false);
    expect(parseIpAddress('example.com')).toBeUndefined();
  });
});
