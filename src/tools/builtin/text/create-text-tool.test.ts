import { afterAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../tool.js';
import { createTextTool } from './create-text-tool.js';

const context = { ownerId: 'sub:tester', signal: new AbortController().signal };
const tool = createTextTool();
const slowTool = createTextTool({ timeoutMs: 30_000 });
const catastrophic = { text: `${'a'.repeat(40)}!`, pattern: '(a+)+$' };

afterAll(async () => {
  await Promise.all([tool.close?.(), slowTool.close?.()]);
});

const output = (result: ToolResult): unknown => {
  if (!result.ok) throw new Error(`expected success, got ${result.error}`);
  return JSON.parse(result.output);
};

describe('text.count_tokens', () => {
  it('counts o200k_base tokens and code points', async () => {
    expect(output(await tool.invoke('count_tokens', { text: 'hello world' }, context))).toEqual({
      tokens: 2,
      characters: 11,
      encoding: 'o200k_base',
    });
    expect(output(await tool.invoke('count_tokens', { text: 'Hello, 世界! 😀' }, context))).toEqual({
      tokens: 5,
      characters: 12,
      encoding: 'o200k_base',
    });
  });

  it('counts special-token text as ordinary text instead of failing', async () => {
    expect(output(await tool.invoke('count_tokens', { text: '<|endoftext|>' }, context))).toEqual({
      tokens: 7,
      characters: 13,
      encoding: 'o200k_base',
    });
  });

  it('counts an empty text as nothing', async () => {
    expect(output(await tool.invoke('count_tokens', { text: '' }, context))).toEqual({
      tokens: 0,
      characters: 0,
      encoding: 'o200k_base',
    });
  });

  it('fails a text whose byte-pair merge would run for seconds, within the time bound', async () => {
    const bounded = createTextTool({ timeoutMs: 200 });
    try {
      expect(await bounded.invoke('count_tokens', { text: 'a'.repeat(200_000) }, context)).toEqual({
        ok: false,
        error: 'token count timed out',
      });
    } finally {
      await bounded.close?.();
    }
  });
});

describe('text.extract', () => {
  it('returns every match with its index and numbered and named groups', async () => {
    const text = 'Order 12 shipped 2026-03-08, order 7 on 2026-04-01';
    const result = await tool.invoke('extract', { text, pattern: '(?<year>\\d{4})-(\\d{2})-(\\d{2})' }, context);
    expect(output(result)).toEqual({
      matches: [
        { match: '2026-03-08', index: 17, groups: { 1: '2026', 2: '03', 3: '08', year: '2026' } },
        { match: '2026-04-01', index: 40, groups: { 1: '2026', 2: '04', 3: '01', year: '2026' } },
      ],
      truncated: false,
    });
  });

  it('applies the given flags and reports groups that did not take part as null', async () => {
    expect(output(await tool.invoke('extract', { text: 'A ab', pattern: 'a(b)?', flags: 'i' }, context))).toEqual({
      matches: [
        { match: 'A', index: 0, groups: { 1: null } },
        { match: 'ab', index: 2, groups: { 1: 'b' } },
      ],
      truncated: false,
    });
  });

  it('steps past empty matches instead of looping', async () => {
    expect(output(await tool.invoke('extract', { text: 'ab', pattern: 'x*' }, context))).toEqual({
      matches: [
        { match: '', index: 0, groups: {} },
        { match: '', index: 1, groups: {} },
        { match: '', index: 2, groups: {} },
      ],
      truncated: false,
    });
  });

  it('keeps a group named __proto__ as plain data', async () => {
    const result = await tool.invoke('extract', { text: 'a', pattern: '(?<__proto__>a)' }, context);
    expect(result).toEqual({
      ok: true,
      output: '{"matches":[{"match":"a","index":0,"groups":{"1":"a","__proto__":"a"}}],"truncated":false}',
    });
  });

  it('stops at 1000 matches and says it truncated', async () => {
    const result = output(await tool.invoke('extract', { text: 'a'.repeat(1500), pattern: 'a' }, context)) as {
      matches: unknown[];
      truncated: boolean;
    };
    expect(result.matches).toHaveLength(1000);
    expect(result.truncated).toBe(true);
  });

  it('stops once matches and groups exceed 1 MiB of text', async () => {
    const text = 'a'.repeat(600_000);
    const result = output(await tool.invoke('extract', { text, pattern: '(?=(a+))a' }, context)) as {
      matches: unknown[];
      truncated: boolean;
    };
    expect(result.matches).toHaveLength(1);
    expect(result.truncated).toBe(true);
  });

  it('fails an invalid pattern with the engine message', async () => {
    expect(await tool.invoke('extract', { text: 'abc', pattern: '(' }, context)).toEqual({
      ok: false,
      error: 'invalid pattern: Invalid regular expression: /(/g: Unterminated group',
    });
  });

  it('fails flags outside gimsuy', async () => {
    expect(await tool.invoke('extract', { text: 'abc', pattern: 'b', flags: 'gd' }, context)).toEqual({
      ok: false,
      error: 'flags may only contain g, i, m, s, u and y',
    });
  });

  it('fails a catastrophically backtracking pattern quickly and keeps working afterwards', async () => {
    const started = performance.now();
    expect(await tool.invoke('extract', catastrophic, context)).toEqual({ ok: false, error: 'pattern timed out' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(output(await tool.invoke('extract', { text: 'xyz', pattern: 'y' }, context))).toEqual({
      matches: [{ match: 'y', index: 1, groups: {} }],
      truncated: false,
    });
  });

  it("refuses at once, as busy, a call that would wait past the caller's bound, and keeps serving others", async () => {
    const small = createTextTool({ timeoutMs: 10_000, pool: { threads: 2, maxWaitingPerOwner: 1 } });
    const stop = new AbortController();
    const flooding = { ownerId: 'sub:mallory', signal: stop.signal };
    try {
      const running = small.invoke('extract', catastrophic, flooding);
      const waiting = small.invoke('extract', catastrophic, flooding);
      expect(await small.invoke('extract', catastrophic, flooding)).toEqual({
        ok: false,
        error: 'pattern not run: the tool has too many calls waiting; retry shortly',
        busy: true,
      });
      // Her calls hold one thread at most: another caller is served beside them.
      expect(output(await small.invoke('extract', { text: 'xyz', pattern: 'y' }, { ownerId: 'sub:bob', signal: new AbortController().signal }))).toMatchObject({ matches: [{ match: 'y' }] });
      stop.abort();
      expect(await Promise.all([running, waiting])).toEqual([
        { ok: false, error: 'aborted' },
        { ok: false, error: 'aborted' },
      ]);
    } finally {
      await small.close?.();
    }
  });

  it('stops a running match when the call is aborted', async () => {
    const controller = new AbortController();
    const pending = slowTool.invoke('extract', catastrophic, { ownerId: 'sub:tester', signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    expect(await pending).toEqual({ ok: false, error: 'aborted' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(output(await slowTool.invoke('extract', { text: 'abc', pattern: 'c' }, context))).toMatchObject({
      matches: [{ match: 'c', index: 2 }],
    });
  });
});

describe('text.diff', () => {
  it('returns a unified diff with counts of added and deleted lines', async () => {
    expect(output(await tool.invoke('diff', { before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' }, context))).toEqual({
      diff: '--- before\n+++ after\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n',
      additions: 2,
      deletions: 1,
    });
  });

  it('marks a missing final newline the way diff(1) does', async () => {
    expect(output(await tool.invoke('diff', { before: 'a', after: 'b' }, context))).toEqual({
      diff: '--- before\n+++ after\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
      additions: 1,
      deletions: 1,
    });
  });

  it('returns an empty diff for identical texts', async () => {
    expect(output(await tool.invoke('diff', { before: 'same\n', after: 'same\n' }, context))).toEqual({
      diff: '',
      additions: 0,
      deletions: 0,
    });
  });
});

describe('createTextTool', () => {
  it('fails an undeclared operation naming the accepted ones', async () => {
    expect(await tool.invoke('replace', {}, context)).toEqual({
      ok: false,
      error: 'unknown operation "replace"; text accepts count_tokens, extract, diff',
    });
  });

  it('fails rather than throws on parameters of the wrong type', async () => {
    expect(await tool.invoke('count_tokens', { text: 1 }, context)).toMatchObject({ ok: false });
    expect(await tool.invoke('extract', { text: 'a', pattern: /a/ }, context)).toMatchObject({ ok: false });
    expect(await tool.invoke('diff', { before: 'a' }, context)).toMatchObject({ ok: false });
  });

  it('fails without working when the call is already aborted', async () => {
    const aborted = { ownerId: 'sub:tester', signal: AbortSignal.abort() };
    expect(await tool.invoke('count_tokens', { text: 'x' }, aborted)).toEqual({ ok: false, error: 'aborted' });
  });

  it('refuses a time bound outside 1 to 60000 ms at construction', () => {
    expect(() => createTextTool({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createTextTool({ timeoutMs: 1.5 })).toThrow(RangeError);
  });
});
