import { describe, expect, it } from 'vitest';
import { limitText, spendLevel, usedPercent } from './spend-limits';

describe('spendLevel', () => {
  it('warns from 80 % of the limit and says reached at the limit and beyond', () => {
    expect(spendLevel(0.0079, 0.01)).toBe('ok');
    expect(spendLevel(0.008, 0.01)).toBe('warn');
    expect(spendLevel(0.00999, 0.01)).toBe('warn');
    expect(spendLevel(0.01, 0.01)).toBe('reached');
    expect(spendLevel(0.013, 0.01)).toBe('reached');
  });

  it('has no level without a limit, and a zero limit is reached from the start', () => {
    expect(spendLevel(5, null)).toBe('unlimited');
    expect(spendLevel(0, 0)).toBe('reached');
  });
});

describe('usedPercent', () => {
  it('rounds down, so 100 % means the limit is reached', () => {
    expect(usedPercent(0.0085, 0.01)).toBe(85);
    expect(usedPercent(0.009999, 0.01)).toBe(99);
    expect(usedPercent(0.0125, 0.01)).toBe(125);
    expect(usedPercent(0, 0)).toBe(100);
  });
});

describe('limitText', () => {
  it('says no limit for null, else the dollars', () => {
    expect(limitText(null)).toBe('no limit');
    expect(limitText(0.01)).toBe('$0.01');
  });
});
