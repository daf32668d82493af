import { describe, expect, it } from 'vitest';
import { MAX_REDACTION_DEPTH, REDACTED, redactValue, redactValueOrSame } from './index.js';

const githubToken = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';

/** `levels` objects nested as { child: … } around a leaf. */
const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { child: nest(levels - 1, leaf) });
const depthOf = (value: unknown): number => (typeof value === 'object' && value !== null && 'child' in value ? 1 + depthOf(value.child) : 0);

describe('redactValue', () => {
  it('catches secrets in parsed JSON strings that were escaped in the raw text', () => {
    const raw = '{"note":"token \\u0067hp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ here","line":"Bearer\\tabc123DEF456ghi789JKL"}';
    expect(raw).not.toContain(githubToken);
    expect(redactValue(JSON.parse(raw))).toEqual({ note: 'token [REDACTED] here', line: 'Bearer\t[REDACTED]' });
  });

  it('redacts strings in nested arrays and objects and keeps non-string leaves as they are', () => {
    const when = new Date(0);
    const input = { a: [1, true, null, undefined, `x ${githubToken}`, [{ b: githubToken }]], n: 42, big: 7n, when };
    const output = redactValue(input);
    expect(output).toEqual({ a: [1, true, null, undefined, 'x [REDACTED]', [{ b: REDACTED }]], n: 42, big: 7n, when });
    expect(output.when).toBe(when);
  });

  it('redacts object keys', () => {
    expect(redactValue({ [`cache:${githubToken}`]: 1 })).toEqual({ 'cache:[REDACTED]': 1 });
  });

  it('redacts a value whose key says it is a secret, keeping the rest of the object', () => {
    expect(redactValue({ user: 'ann', password: 'hunter2', apiKey: 'Zx81Qw7eRt5yUi3oPa1s', authorization: 'Bearer abc123DEF456ghi789' })).toEqual({
      user: 'ann',
      password: REDACTED,
      apiKey: REDACTED,
      authorization: 'Bearer [REDACTED]',
    });
    expect(redactValue({ token_count: '12', password: 'string' })).toEqual({ token_count: '12', password: 'string' });
  });

  it('never mutates its input', () => {
    const input = { list: [githubToken], nested: { password: 'hunter2' } };
    const snapshot = structuredClone(input);
    const output = redactValue(input);
    expect(input).toEqual(snapshot);
    expect(output).not.toBe(input);
    expect(output.list).not.toBe(input.list);
  });

  it('reproduces cycles and shared references instead of recursing forever', () => {
    const shared = { secret: githubToken };
    const input: Record<string, unknown> = { left: shared, right: shared };
    input.self = input;
    const output = redactValue(input);
    expect(output.self).toBe(output);
    expect(output.left).toBe(output.right);
    expect(output.left).toEqual({ secret: REDACTED });
  });

  it(`copies ${MAX_REDACTION_DEPTH} levels of nesting and replaces anything deeper`, () => {
    expect(depthOf(redactValue(nest(MAX_REDACTION_DEPTH, 'leaf')))).toBe(MAX_REDACTION_DEPTH);
    const tooDeep = redactValue(nest(MAX_REDACTION_DEPTH + 2, 'leaf'));
    expect(depthOf(tooDeep)).toBe(MAX_REDACTION_DEPTH);
    let cursor = tooDeep as { child: unknown };
    for (let level = 1; level < MAX_REDACTION_DEPTH; level += 1) cursor = cursor.child as { child: unknown };
    expect(cursor.child).toBe(REDACTED);
  });

  it('redacts error messages and stacks, Map and Set entries and URL passwords', () => {
    const error = new Error(`failed with ${githubToken}`);
    const output = redactValue({ error, map: new Map([['password', 'hunter2'], [githubToken, 'v']]), set: new Set([githubToken]), url: new URL('https://u:pa55@host.example/') });
    expect(output.error).toBeInstanceOf(Error);
    expect(output.error.message).toBe('failed with [REDACTED]');
    expect(output.error.stack).not.toContain(githubToken);
    expect(Object.keys(output.error)).toEqual([]);
    expect([...output.map]).toEqual([['password', REDACTED], [REDACTED, 'v']]);
    expect([...output.set]).toEqual([REDACTED]);
    expect(output.url.password).not.toContain('pa55');
    expect(error.message).toContain(githubToken);
  });

  it('copies a "__proto__" key from parsed JSON as a plain property without touching the prototype', () => {
    const output = redactValue(JSON.parse('{"__proto__": {"password": "hunter2"}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ password: REDACTED });
  });

  it('keeps the prototype of class instances', () => {
    class Credentials {
      constructor(readonly user: string, readonly secret: string) {}
    }
    const output = redactValue(new Credentials('ann', githubToken));
    expect(output).toBeInstanceOf(Credentials);
    expect(output).toEqual(new Credentials('ann', REDACTED));
  });

  it('returns primitives other than strings as they are', () => {
    expect(redactValue(5)).toBe(5);
    expect(redactValue(null)).toBe(null);
    expect(redactValue(undefined)).toBe(undefined);
    expect(redactValue(githubToken)).toBe(REDACTED);
  });
});

describe('redactValueOrSame', () => {
  it('returns the value itself when it carries no secret', () => {
    const output = { iso: '2026-11-25T02:50:33.123Z', epochMs: 1764039033123, nested: [{ note: 'no secret here', password_hint: '' }] };
    expect(redactValueOrSame(output)).toBe(output);
    expect(redactValueOrSame('plain text')).toBe('plain text');
  });

  it('returns a redacted copy, leaving the input as it was, when a secret is anywhere in it', () => {
    const inValue = { list: [{ note: `x ${githubToken}` }] };
    const inPair = { user: 'ann', password: 'hunter2' };
    const inKey = { [`cache:${githubToken}`]: 1 };
    expect(redactValueOrSame(inValue)).toEqual({ list: [{ note: 'x [REDACTED]' }] });
    expect(redactValueOrSame(inPair)).toEqual({ user: 'ann', password: REDACTED });
    expect(redactValueOrSame(inKey)).toEqual({ 'cache:[REDACTED]': 1 });
    expect(inValue.list[0]!.note).toContain(githubToken);
    expect(inPair.password).toBe('hunter2');
  });

  it('copies a value nested deeper than the redaction depth, marking what is too deep', () => {
    const deep = nest(MAX_REDACTION_DEPTH + 2, 'leaf');
    const copied = redactValueOrSame(deep);
    expect(copied).not.toBe(deep);
    expect(copied).toEqual(redactValue(deep));
    expect(depthOf(copied)).toBe(MAX_REDACTION_DEPTH);
  });
});
