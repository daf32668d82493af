import { describe, expect, it } from 'vitest';
import { containsSecret, MAX_REDACTION_DEPTH, redactValue, secretRules } from './index.js';

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { child: nest(levels - 1, leaf) });

describe('containsSecret', () => {
  it('finds a secret in a string, a nested value, an object key or a Map entry', () => {
    expect(containsSecret(`run with ${githubToken}`)).toBe(true);
    expect(containsSecret({ args: [{ header: `Authorization: Bearer abc123DEF456ghi789` }] })).toBe(true);
    expect(containsSecret({ [githubToken]: 1 })).toBe(true);
    expect(containsSecret(new Map([['k', githubToken]]))).toBe(true);
  });

  it('treats a value whose key marks it secret as a secret', () => {
    expect(containsSecret({ url: 'https://example.com', password: 'hunter2' })).toBe(true);
    expect(containsSecret({ password: 'string', token_count: 3 })).toBe(false);
  });

  it('finds nothing in ordinary parameters or in already-redacted values', () => {
    expect(containsSecret({ query: 'how do I rotate a token?', limit: 10, tags: ['a', 'b'], at: new Date(0) })).toBe(false);
    expect(containsSecret(redactValue({ password: 'hunter2', note: `use ${githubToken}` }))).toBe(false);
    expect(containsSecret(null)).toBe(false);
    expect(containsSecret(42)).toBe(false);
  });

  it('detects every positive example of every rule', () => {
    for (const rule of secretRules) for (const [text] of rule.examples.detects) expect(containsSecret({ text }), rule.id).toBe(true);
  });

  it('survives cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(containsSecret(cyclic)).toBe(false);
    cyclic.token = githubToken;
    expect(containsSecret(cyclic)).toBe(true);
  });

  it('fails closed on content nested deeper than it inspects', () => {
    expect(containsSecret(nest(MAX_REDACTION_DEPTH, 'harmless'))).toBe(false);
    expect(containsSecret(nest(MAX_REDACTION_DEPTH + 2, 'harmless'))).toBe(true);
  });
});
