import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ManualClock } from '../../../platform/clock/index.js';
import { createMemoryStorage } from '../../../platform/storage/index.js';
import type { ToolCallContext, ToolResult } from '../../tool.js';
import { createMemoryTool } from './index.js';

const as = (ownerId: string): ToolCallContext => ({ ownerId, signal: new AbortController().signal });
interface MemoryOutput {
  readonly key?: string;
  readonly found?: boolean;
  readonly value?: unknown;
  readonly expiresAt?: string | null;
  readonly keys?: string[];
}
const output = (result: ToolResult): MemoryOutput => {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return JSON.parse(result.output) as MemoryOutput;
};

function setup(bounds: { maxBytesPerOwner?: number; maxOwners?: number } = {}) {
  const clock = new ManualClock();
  const storage = createMemoryStorage({ clock });
  const { tool, store } = createMemoryTool({ clock, storage, maxBytesPerOwner: 100 * 1024 * 1024, maxOwners: 1000, ...bounds });
  return { clock, tool, store, storage };
}

describe('memory tool', () => {
  it('declares the descriptor flags of DESIGN §4', () => {
    const { tool } = setup();
    expect(tool.descriptor).toMatchObject({
      name: 'memory',
      riskTier: 'Low',
      isReadOnly: false,
      isConcurrencySafe: false,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    });
    expect(tool.descriptor.operations.map((o) => o.name)).toEqual(['get', 'set', 'list', 'delete']);
  });

  it('declares strict parameter schemas that ajv compiles and that refuse unknown fields and bad keys', () => {
    const { tool } = setup();
    const ajv = new Ajv2020({ strict: true });
    const validate = Object.fromEntries(tool.descriptor.operations.map((o) => [o.name, ajv.compile(o.parameters)]));
    expect(validate['set']!({ key: 'a', value: { x: 1 }, ttlSeconds: 60 })).toBe(true);
    expect(validate['set']!({ key: 'a' })).toBe(false);
    expect(validate['get']!({ key: 'a', owner: 'someone' })).toBe(false);
    expect(validate['get']!({ key: 'has space' })).toBe(false);
    expect(validate['set']!({ key: 'a', value: 1, ttlSeconds: 30 * 86400 + 1 })).toBe(false);
    expect(validate['list']!({})).toBe(true);
  });

  it('returns what was set, and reports a missing key as not found', async () => {
    const { tool } = setup();
    await tool.invoke('set', { key: 'notes/today', value: { items: [1, 'two', null] } }, as('oid:alice'));
    expect(output(await tool.invoke('get', { key: 'notes/today' }, as('oid:alice')))).toEqual({
      key: 'notes/today',
      found: true,
      value: { items: [1, 'two', null] },
      expiresAt: null,
    });
    expect(output(await tool.invoke('get', { key: 'nothing' }, as('oid:alice')))).toMatchObject({ found: false });
  });

  it('never lets one owner see, list or delete another owner’s keys', async () => {
    const { tool } = setup();
    await tool.invoke('set', { key: 'secret', value: 'alice-only' }, as('oid:alice'));
    expect(output(await tool.invoke('get', { key: 'secret' }, as('oid:bob')))).toMatchObject({ found: false });
    expect(output(await tool.invoke('list', {}, as('oid:bob')))).toEqual({ keys: [] });
    expect(output(await tool.invoke('delete', { key: 'secret' }, as('oid:bob')))).toEqual({ key: 'secret', deleted: false });
    // Same claim value, different claim family: a different owner.
    expect(output(await tool.invoke('get', { key: 'secret' }, as('name:alice')))).toMatchObject({ found: false });
    expect(output(await tool.invoke('get', { key: 'secret' }, as('oid:alice')))).toMatchObject({ value: 'alice-only' });
  });

  it('expires a value once its TTL has passed on the injected clock', async () => {
    const { tool, clock } = setup();
    const set = output(await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 60 }, as('o')));
    expect(set.expiresAt).toBe(new Date(clock.now() + 60_000).toISOString());
    clock.advance(59_999);
    expect(output(await tool.invoke('get', { key: 'k' }, as('o')))).toMatchObject({ found: true, value: 1 });
    clock.advance(1);
    expect(output(await tool.invoke('get', { key: 'k' }, as('o')))).toMatchObject({ found: false });
    expect(output(await tool.invoke('list', {}, as('o')))).toEqual({ keys: [] });
  });

  it('clears a TTL when a key is set again without one', async () => {
    const { tool, clock } = setup();
    await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 1 }, as('o'));
    await tool.invoke('set', { key: 'k', value: 2 }, as('o'));
    clock.advance(365 * 86_400_000);
    expect(output(await tool.invoke('get', { key: 'k' }, as('o')))).toMatchObject({ found: true, value: 2 });
  });

  it('lists keys sorted, filtered by prefix', async () => {
    const { tool } = setup();
    for (const key of ['b/2', 'a', 'b/1', 'c:x', 'B/0']) await tool.invoke('set', { key, value: true }, as('o'));
    expect(output(await tool.invoke('list', {}, as('o')))).toEqual({ keys: ['B/0', 'a', 'b/1', 'b/2', 'c:x'] });
    expect(output(await tool.invoke('list', { prefix: 'b/' }, as('o')))).toEqual({ keys: ['b/1', 'b/2'] });
  });

  it('deletes a key and says whether it existed', async () => {
    const { tool } = setup();
    await tool.invoke('set', { key: 'k', value: 1 }, as('o'));
    expect(output(await tool.invoke('delete', { key: 'k' }, as('o')))).toEqual({ key: 'k', deleted: true });
    expect(output(await tool.invoke('delete', { key: 'k' }, as('o')))).toEqual({ key: 'k', deleted: false });
  });

  it('refuses keys that are too long or use other characters', async () => {
    const { tool } = setup();
    expect(await tool.invoke('set', { key: 'x'.repeat(256), value: 1 }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'x'.repeat(257), value: 1 }, as('o'))).toMatchObject({ ok: false });
    expect(await tool.invoke('get', { key: 'a b' }, as('o'))).toMatchObject({ ok: false });
    expect(await tool.invoke('get', { key: '' }, as('o'))).toMatchObject({ ok: false });
  });

  it('accepts a value of exactly 64 KiB serialized and refuses one byte more', async () => {
    const { tool } = setup();
    const exact = 'x'.repeat(64 * 1024 - 2); // plus two quotes
    expect(await tool.invoke('set', { key: 'k', value: exact }, as('o'))).toMatchObject({ ok: true });
    const result = await tool.invoke('set', { key: 'k', value: `${exact}x` }, as('o'));
    expect(result).toEqual({ ok: false, error: expect.stringContaining('65536 bytes') });
    expect(output(await tool.invoke('get', { key: 'k' }, as('o'))).value).toBe(exact);
  });

  it('holds at most 1000 keys per owner but still lets existing keys be overwritten', async () => {
    const { tool } = setup();
    for (let i = 0; i < 1000; i++) await tool.invoke('set', { key: `k${i}`, value: i }, as('o'));
    expect(await tool.invoke('set', { key: 'one-more', value: 0 }, as('o'))).toMatchObject({ ok: false });
    expect(await tool.invoke('set', { key: 'k5', value: 'again' }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'first', value: 0 }, as('someone-else'))).toMatchObject({ ok: true });
    expect(output(await tool.invoke('list', {}, as('o'))).keys).toHaveLength(1000);
  });

  it('frees room once keys with a TTL expire', async () => {
    const { tool, clock } = setup();
    for (let i = 0; i < 1000; i++) await tool.invoke('set', { key: `k${i}`, value: i, ttlSeconds: 10 }, as('o'));
    clock.advance(10_000);
    expect(await tool.invoke('set', { key: 'fresh', value: 0 }, as('o'))).toMatchObject({ ok: true });
  });

  it('refuses an out-of-range TTL even when the schema was skipped', async () => {
    const { tool } = setup();
    expect(await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 0 }, as('o'))).toMatchObject({ ok: false });
    expect(await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 1.5 }, as('o'))).toMatchObject({ ok: false });
    expect(await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 2_592_001 }, as('o'))).toMatchObject({ ok: false });
  });

  it('hands back a copy, so changing a read value does not change the stored one', async () => {
    const { tool } = setup();
    const value = { n: 1 };
    await tool.invoke('set', { key: 'k', value }, as('o'));
    value.n = 2;
    expect(output(await tool.invoke('get', { key: 'k' }, as('o'))).value).toEqual({ n: 1 });
  });

  it('holds at most MaxBytesPerOwner of keys and values per owner, counting an overwrite once', async () => {
    const { tool } = setup({ maxBytesPerOwner: 30 });
    // 'a' + '"0123456789"' = 13 bytes; two fit, a third does not.
    expect(await tool.invoke('set', { key: 'a', value: '0123456789' }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'b', value: '0123456789' }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'c', value: '0123456789' }, as('o'))).toEqual({
      ok: false,
      error: 'Memory is full (30 bytes of keys and values); delete a key first.',
    });
    expect(await tool.invoke('set', { key: 'a', value: '0123456789abcd' }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'a', value: '0123456789abcde' }, as('o'))).toMatchObject({ ok: false });
    await tool.invoke('delete', { key: 'b' }, as('o'));
    expect(await tool.invoke('set', { key: 'c', value: '0123456789' }, as('o'))).toMatchObject({ ok: true });
    expect(await tool.invoke('set', { key: 'x', value: '0123456789' }, as('someone-else'))).toMatchObject({ ok: true });
  });

  it('holds entries for at most MaxOwners owners, and admits a new one once another’s entries are gone', async () => {
    const { tool, clock } = setup({ maxOwners: 2 });
    await tool.invoke('set', { key: 'k', value: 1 }, as('first'));
    await tool.invoke('set', { key: 'k', value: 1, ttlSeconds: 10 }, as('second'));
    expect(await tool.invoke('set', { key: 'k', value: 1 }, as('third'))).toEqual({
      ok: false,
      error: 'Memory is full on this host: it holds entries for as many callers as it may; try again later.',
    });
    expect(await tool.invoke('set', { key: 'more', value: 2 }, as('first'))).toMatchObject({ ok: true });
    clock.advance(10_000);
    expect(await tool.invoke('set', { key: 'k', value: 1 }, as('third'))).toMatchObject({ ok: true });
    await tool.invoke('delete', { key: 'k' }, as('first'));
    await tool.invoke('delete', { key: 'more' }, as('first'));
    expect(await tool.invoke('set', { key: 'k', value: 1 }, as('fourth'))).toMatchObject({ ok: true });
  });

  it('keeps entries in the storage: another instance on the same storage reads them, and a sweep frees what expired', async () => {
    const { tool, clock, storage, store } = setup();
    await tool.invoke('set', { key: 'keep', value: { n: 1 } }, as('o'));
    await tool.invoke('set', { key: 'brief', value: 2, ttlSeconds: 5 }, as('o'));
    const other = createMemoryTool({ clock, storage, maxBytesPerOwner: 1024, maxOwners: 10 }).tool;
    expect(output(await other.invoke('get', { key: 'keep' }, as('o')))).toMatchObject({ found: true, value: { n: 1 } });
    expect(output(await other.invoke('get', { key: 'keep' }, as('intruder')))).toMatchObject({ found: false });
    clock.advance(5_000);
    await store.sweep();
    expect(output(await other.invoke('list', {}, as('o'))).keys).toEqual(['keep']);
    expect((await storage.records.sweep('memory')).length).toBe(0);
  });
});
