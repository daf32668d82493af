import { describe, expect, it } from 'vitest';
import { intersectToolPatterns, matchToolPattern, normalizeToolPatterns } from './tool-pattern-set.js';
import { parseToolPattern } from './tool-pattern.js';

describe('parseToolPattern', () => {
  it.each([
    { raw: 'clock', expected: { kind: 'tool', name: 'clock' } },
    { raw: ' HTTP_Fetch ', expected: { kind: 'tool', name: 'http_fetch' } },
    { raw: 'mcp__S__Get-Sum', expected: { kind: 'mcp-tool', server: 's', tool: 'get-sum' } },
    { raw: 'mcp__s__a__b', expected: { kind: 'mcp-tool', server: 's', tool: 'a__b' } },
    { raw: 'mcp__s', expected: { kind: 'mcp-server', server: 's' } },
    { raw: 'mcp__s__*', expected: { kind: 'mcp-server', server: 's' } },
  ])('reads $raw', ({ raw, expected }) => {
    expect(parseToolPattern(raw)).toEqual(expected);
  });

  it.each(['', '   ', '*', 'cl*', 'mcp__', 'mcp____t', 'mcp__s__', 'mcp__*', 'mcp__*__t', 'mcp__s__get*', 'mcp__s__*__x'])(
    'refuses %j because it can never match a tool',
    (raw) => {
      expect(parseToolPattern(raw)).toBeNull();
    },
  );
});

describe('normalizeToolPatterns', () => {
  it.each([
    { raw: [], expected: [] },
    { raw: ['text', 'Clock', ' clock '], expected: ['clock', 'text'] },
    { raw: ['mcp__FS', 'mcp__fs__*'], expected: ['mcp__fs__*'] },
    { raw: ['mcp__fs__read', 'mcp__fs'], expected: ['mcp__fs__*'] },
    { raw: ['mcp__fs__read', 'mcp__git'], expected: ['mcp__fs__read', 'mcp__git__*'] },
    { raw: ['*', 'mcp__', '', 'clock'], expected: ['clock'] },
  ])('canonicalises $raw to $expected', ({ raw, expected }) => {
    expect(normalizeToolPatterns(raw)).toEqual(expected);
  });
});

describe('intersectToolPatterns', () => {
  it.each([
    { a: ['mcp__s__*'], b: ['mcp__s__t'], expected: ['mcp__s__t'] },
    { a: ['mcp__s'], b: ['mcp__s__*'], expected: ['mcp__s__*'] },
    { a: ['mcp__s__*', 'mcp__s__t'], b: ['mcp__s__*'], expected: ['mcp__s__*'] },
    { a: ['mcp__s__*'], b: ['mcp__t__*'], expected: [] },
    { a: ['mcp__s__a', 'mcp__s__b'], b: ['mcp__s__b', 'mcp__s__c'], expected: ['mcp__s__b'] },
    { a: ['mcp__S__T'], b: ['mcp__s__t'], expected: ['mcp__s__t'] },
    { a: ['clock'], b: ['mcp__clock__*'], expected: [] },
    { a: ['*'], b: ['clock'], expected: [] },
    { a: ['mcp__s__*', 'clock'], b: ['mcp__s__x__y', 'clock'], expected: ['clock', 'mcp__s__x__y'] },
    { a: ['clock', 'text'], b: [], expected: [] },
  ])('$a ∩ $b is $expected', ({ a, b, expected }) => {
    expect(intersectToolPatterns(a, b)).toEqual(expected);
    expect(intersectToolPatterns(b, a)).toEqual(expected);
  });
});

describe('matchToolPattern', () => {
  it.each([
    { patterns: ['clock'], name: 'CLOCK', expected: 'clock' },
    { patterns: ['mcp__s__t', 'mcp__s'], name: 'mcp__S__t', expected: 'mcp__s__*' },
    { patterns: ['mcp__s__t'], name: 'mcp__s__t', expected: 'mcp__s__t' },
    { patterns: ['mcp__s__*'], name: 'mcp__ss__t', expected: null },
    { patterns: ['mcp__clock__*'], name: 'clock', expected: null },
  ])('names the pattern that admits $name', ({ patterns, name, expected }) => {
    expect(matchToolPattern(patterns, name)).toBe(expected);
  });
});

describe('matchToolPattern on a list that changes', () => {
  it('honours a change to a list that is not frozen', () => {
    const patterns = ['clock'];
    expect(matchToolPattern(patterns, 'clock')).toBe('clock');
    patterns[0] = 'text';
    expect(matchToolPattern(patterns, 'clock')).toBeNull();
    expect(matchToolPattern(Object.freeze(['text']), 'text')).toBe('text');
  });
});
