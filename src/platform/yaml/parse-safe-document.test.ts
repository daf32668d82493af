import { LineCounter } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSafeDocument } from './parse-safe-document.js';

function duplicateLine(text: string): number | undefined {
  const lines = new LineCounter();
  const document = parseSafeDocument(text, { lineCounter: lines });
  const error = document.errors.find((e) => e.code === 'DUPLICATE_KEY');
  return error === undefined ? undefined : lines.linePos(error.pos[0]).line;
}

describe('parseSafeDocument', () => {
  it('reports a repeated key as DUPLICATE_KEY at the second occurrence', () => {
    expect(duplicateLine('id: a\nname: b\nid: c\n')).toBe(3);
  });

  it('finds a repeated key in a nested map and in a flow map', () => {
    expect(duplicateLine('outer:\n  x: 1\n  y: 2\n  x: 3\n')).toBe(4);
    expect(duplicateLine('list:\n  - {a: 1, b: 2, a: 3}\n')).toBe(2);
  });

  it('treats keys that become the same text as one key (1 and "1")', () => {
    expect(duplicateLine('1: a\n"1": b\n')).toBe(2);
  });

  it('accepts the same key in different maps, and thousands of distinct keys', () => {
    expect(duplicateLine('a: {k: 1}\nb: {k: 2}\n')).toBeUndefined();
    const many = Array.from({ length: 5000 }, (_, i) => `k${i}: ${i}`).join('\n');
    expect(duplicateLine(many)).toBeUndefined();
    expect(duplicateLine(`${many}\nk4999: again`)).toBe(5001);
  });

  it('keeps the safe options: an unknown tag is reported, never resolved', () => {
    const document = parseSafeDocument('a: !!js/function "x"\n');
    expect([...document.errors, ...document.warnings].map((p) => p.code)).toContain('TAG_RESOLVE_FAILED');
  });
});
