import { describe, expect, it } from 'vitest';
import { parseTtl } from './parse-ttl.js';

describe('parseTtl', () => {
  it.each([
    ['90', 90],
    ['90s', 90],
    ['15m', 900],
    ['1h', 3600],
    ['2d', 172_800],
    ['365d', 31_536_000],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseTtl(text)).toBe(seconds);
  });

  it.each(['', '0', '0h', '1.5h', '-1h', '1w', 'h', '366d', '1 h'])('refuses %j', (text) => {
    expect(parseTtl(text)).toBeNull();
  });
});
