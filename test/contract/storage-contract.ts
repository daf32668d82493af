// The storage port's contract, written once and run against every provider (Memory and PostgreSQL,
// from their test files beside the providers): a provider is correct when these pass. Time is a
// ManualClock the provider was built with, so expiry and leases are driven without sleeps. A test
// suite, not product code: it lives under test/ and never reaches dist/.
import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import type { ManualClock } from '../../src/platform/clock/index.js';
import { CURSOR_PATTERN, encodeCursor, InvalidCursorError, MAX_KEY_BYTES, UnstorableKeyError, type Storage } from '../../src/platform/storage/index.js';

export interface ContractSubject {
  readonly storage: Storage;
  readonly clock: ManualClock;
  /** A second storage on the same backing store (another instance), when the provider has one. */
  readonly peer?: Storage;
  close(): Promise<void>;
}

const key = (id: string, ownerId = 'alice', collection = 'thing') => ({ collection, ownerId, id });

async function nextTicks(times = 20): Promise<void> {
  for (let i = 0; i < times; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface ContractOptions {
  /** The provider is shared by several instances (a peer can be opened; blobs are kept for them). */
  readonly peers: boolean;
}

export function describeStorageContract(provider: string, create: () => Promise<ContractSubject>, options: ContractOptions): void {
  describe(`storage contract: ${provider}`, () => {
    let subject: ContractSubject;
    let storage: Storage;
    let clock: ManualClock;
    beforeEach(async () => {
      subject = await create();
      storage = subject.storage;
      clock = subject.clock;
    });
    afterEach(async () => subject.close());

    describe('records', () => {
      it('reads a record back only under its own owner: another owner’s id is the same miss as an unknown one', async () => {
        await storage.records.insert({ ...key('r1'), createdAt: clock.now(), data: { n: 1 } });
        expect((await storage.records.get(key('r1')))?.data).toEqual({ n: 1 });
        expect(await storage.records.get(key('r1', 'mallory'))).toBeUndefined();
        expect(await storage.records.get(key('nope'))).toBeUndefined();
        expect(await storage.records.delete(key('r1', 'mallory'))).toBe(false);
        expect(await storage.records.get(key('r1'))).toBeDefined();
      });

      it('stores plain data: a change to the object after writing does not change what is stored', async () => {
        const data = { list: [1, 2], nested: { a: 'x' } };
        await storage.records.put({ ...key('r1'), createdAt: clock.now(), data });
        try {
          data.list.push(3);
          data.nested.a = 'y';
        } catch {
          // the memory provider freezes what it stores
        }
        expect((await storage.records.get(key('r1')))?.data).toEqual({ list: [1, 2], nested: { a: 'x' } });
      });

      it('gives data back exactly as written: key order, control characters, unicode and numbers', async () => {
        const data = { z: 1, a: [1.5, -0, 1e21, 9007199254740991], 'k\u0000': 'nul\u0000 and \u2028 \ud83d\ude00', nested: { b: null, a: true } };
        await storage.records.put({ ...key('exact'), createdAt: clock.now(), data });
        const read = (await storage.records.get<typeof data>(key('exact')))?.data;
        expect(JSON.stringify(read)).toBe(JSON.stringify(data));
        const run = key('exact-run', 'alice', 'run');
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        await storage.journal.commit(run, { items: [{ key: 'i', data }], events: [data] });
        expect(JSON.stringify((await storage.journal.items(run))[0]?.data)).toBe(JSON.stringify(data));
        expect(JSON.stringify((await storage.journal.events(run, 0, 1))[0]?.event)).toBe(JSON.stringify(data));
      });

      it('slides an expiry on touch with slack only when it is older than now + ttl − slack, and answers the record as stored either way', async () => {
        await storage.records.insert({ ...key('slack'), createdAt: clock.now(), expiresAt: clock.now() + 10_000, data: 'h' });
        const inserted = (await storage.records.get(key('slack')))!;
        clock.advance(500);
        const fresh = await storage.records.touch(key('slack'), 10_000, 1_000);
        expect(fresh).toEqual(inserted);
        clock.advance(501);
        const slid = await storage.records.touch(key('slack'), 10_000, 1_000);
        expect(slid?.expiresAt).toBe(clock.now() + 10_000);
        expect(slid?.version).toBe(inserted.version + 1);
        expect(await storage.records.touch(key('nothing'), 10_000, 1_000)).toBeUndefined();
      });

      it('treats a record as absent from its expiry instant on, slides the expiry on touch, and sweeps expired ones', async () => {
        await storage.records.insert({ ...key('short'), createdAt: clock.now(), expiresAt: clock.now() + 1_000, data: 1 });
        await storage.records.insert({ ...key('long'), createdAt: clock.now(), expiresAt: clock.now() + 5_000, data: 2 });
        clock.advance(800);
        expect((await storage.records.touch(key('short'), 1_000))?.expiresAt).toBe(clock.now() + 1_000);
        clock.advance(999);
        expect(await storage.records.get(key('short'))).toBeDefined();
        clock.advance(1);
        expect(await storage.records.get(key('short'))).toBeUndefined();
        expect(await storage.records.touch(key('short'), 1_000)).toBeUndefined();
        const swept = await storage.records.sweep('thing');
        expect(swept.map((r) => r.id)).toEqual(['short']);
        expect(await storage.records.sweep('thing')).toEqual([]);
        expect((await storage.records.get(key('long')))?.data).toBe(2);
      });

      it('inserts once: a second insert of a live key answers exists with the stored record, an expired key is replaced', async () => {
        const first = await storage.records.insert({ ...key('k'), createdAt: clock.now(), expiresAt: clock.now() + 1_000, data: 'a' });
        expect(first.outcome).toBe('inserted');
        const again = await storage.records.insert({ ...key('k'), createdAt: clock.now(), data: 'b' });
        expect(again.outcome).toBe('exists');
        expect(again.outcome === 'exists' && again.record.data).toBe('a');
        clock.advance(1_000);
        expect((await storage.records.insert({ ...key('k'), createdAt: clock.now(), data: 'c' })).outcome).toBe('inserted');
        expect((await storage.records.get(key('k')))?.data).toBe('c');
      });

      it('refuses an insert over the owner cap counted on live states, and a second live record of an exclusive scope', async () => {
        const rules = { ownerCap: { max: 2, states: ['Queued', 'Running'] }, exclusiveScope: { states: ['Queued', 'Running'] } };
        const make = (id: string, scope: string) => ({ ...key(id), scope, state: 'Queued', createdAt: clock.now(), data: {} });
        expect((await storage.records.insert(make('a', 'w1'), rules)).outcome).toBe('inserted');
        expect((await storage.records.insert(make('b', 'w1'), rules)).outcome).toBe('scope-busy');
        expect((await storage.records.insert(make('b', 'w2'), rules)).outcome).toBe('inserted');
        expect((await storage.records.insert(make('c', 'w3'), rules)).outcome).toBe('owner-cap');
        expect((await storage.records.insert({ ...make('c', 'w3'), ownerId: 'bob' }, rules)).outcome).toBe('inserted');
        await storage.records.update(key('a'), { state: 'Succeeded' });
        expect((await storage.records.insert(make('c', 'w1'), rules)).outcome).toBe('inserted');
      });

      it('admits exactly the cap when inserts race', async () => {
        const rules = { ownerCap: { max: 3, states: ['Queued'] } };
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => storage.records.insert({ ...key(`race${i}`), state: 'Queued', createdAt: clock.now(), data: {} }, rules)),
        );
        expect(results.filter((r) => r.outcome === 'inserted')).toHaveLength(3);
        expect(await storage.records.count('thing', 'alice', ['Queued'])).toBe(3);
      });

      it('fences writes by lease holder: a lapsed lease nobody claimed still passes, one claimed by another does not', async () => {
        await storage.records.insert({ ...key('f'), state: 'Running', createdAt: clock.now(), lease: { holder: 'i1', expiresAt: clock.now() + 100 }, data: 0 });
        clock.advance(500);
        expect(await storage.records.update(key('f'), { data: 1 }, { leaseHolder: 'i1' })).toBeDefined();
        await storage.records.claim(key('f'), 'i2', 1_000, { states: ['Running'], lapsedOnly: true });
        expect(await storage.records.update(key('f'), { data: 2 }, { leaseHolder: 'i1' })).toBeUndefined();
        expect((await storage.records.get(key('f')))?.data).toBe(1);
      });

      it('updates under a guard: version, states and lease holder must match, or nothing changes', async () => {
        const inserted = await storage.records.insert({ ...key('g'), state: 'Queued', createdAt: clock.now(), data: { v: 0 } });
        expect(inserted.outcome).toBe('inserted');
        const v1 = inserted.outcome === 'inserted' ? inserted.record.version : 0;
        expect(await storage.records.update(key('g'), { data: { v: 1 } }, { version: v1 + 1 })).toBeUndefined();
        const updated = await storage.records.update(key('g'), { data: { v: 1 }, state: 'Running' }, { version: v1, states: ['Queued'] });
        expect(updated?.version).toBe(v1 + 1);
        expect(updated?.state).toBe('Running');
        expect(await storage.records.update(key('g'), { state: 'Done' }, { states: ['Queued'] })).toBeUndefined();
        expect(await storage.records.update(key('g'), { state: 'Done' }, { leaseHolder: 'i1' })).toBeUndefined();
        expect(await storage.records.update(key('g', 'mallory'), { state: 'Done' })).toBeUndefined();
        expect((await storage.records.get(key('g')))?.state).toBe('Running');
      });

      it('lists an owner’s records newest first, filtered by scope and state, in pages joined by an opaque cursor', async () => {
        for (let i = 0; i < 5; i += 1) {
          await storage.records.insert({ ...key(`l${i}`), scope: i % 2 === 0 ? 'even' : 'odd', state: i < 3 ? 'Done' : 'Live', createdAt: clock.now(), data: i });
          clock.advance(10);
        }
        await storage.records.insert({ ...key('other', 'bob'), createdAt: clock.now(), data: 9 });
        const first = await storage.records.list('thing', 'alice', { limit: 2 });
        expect(first.records.map((r) => r.id)).toEqual(['l4', 'l3']);
        expect(first.nextCursor).not.toBeNull();
        const second = await storage.records.list('thing', 'alice', { limit: 2, cursor: first.nextCursor });
        expect(second.records.map((r) => r.id)).toEqual(['l2', 'l1']);
        const third = await storage.records.list('thing', 'alice', { limit: 2, cursor: second.nextCursor });
        expect(third.records.map((r) => r.id)).toEqual(['l0']);
        expect(third.nextCursor).toBeNull();
        expect((await storage.records.list('thing', 'alice', { limit: 10, scope: 'even' })).records.map((r) => r.id)).toEqual(['l4', 'l2', 'l0']);
        expect((await storage.records.list('thing', 'alice', { limit: 10, states: ['Live'] })).records.map((r) => r.id)).toEqual(['l4', 'l3']);
        const exact = await storage.records.list('thing', 'alice', { limit: 5 });
        expect((await storage.records.list('thing', 'alice', { limit: 5, cursor: exact.nextCursor })).records).toEqual([]);
        await expect(storage.records.list('thing', 'alice', { limit: 2, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(InvalidCursorError);
      });

      it('reads any cursor of the documented form as a position (one holding a NUL included) and refuses any other text', async () => {
        for (const id of ['a', 'b', 'b\u0001', 'c']) await storage.records.insert({ ...key(id), createdAt: clock.now(), data: id });
        const after = async (id: string, createdAt = clock.now()) =>
          (await storage.records.list('thing', 'alice', { limit: 10, cursor: encodeCursor({ createdAt, id }) })).records.map((r) => r.id);
        expect(await after('c')).toEqual(['b\u0001', 'b', 'a']);
        // No id holds a NUL: 'b\0zz' sits between 'b' and 'b\x01'.
        expect(await after('b\u0000zz')).toEqual(['b', 'a']);
        expect(await after('z', 0)).toEqual([]);
        expect(new RegExp(CURSOR_PATTERN).test(encodeCursor({ createdAt: clock.now(), id: 'b\u0001' }))).toBe(true);
        for (const forged of ['0', '12', '.YQ', 'x.YQ', '1.a b', `1.${'a'.repeat(1024)}`]) {
          await expect(storage.records.list('thing', 'alice', { limit: 2, cursor: forged }), forged).rejects.toBeInstanceOf(InvalidCursorError);
        }
      });

      it('treats a key no provider can keep (a NUL, an unpaired surrogate, over 512 bytes) as naming nothing: reads miss, writes are refused', async () => {
        // What PostgreSQL would make of an unpaired surrogate (U+FFFD): it must stay another key.
        await storage.records.insert({ ...key('x\uFFFD', 'alice'), scope: 's\uFFFD', state: 'Running', createdAt: clock.now(), data: 1 });
        await storage.records.insert({ ...key('x\uFFFD', 'alice', 'run'), state: 'Running', createdAt: clock.now(), data: 1 });
        await storage.journal.commit(key('x\uFFFD', 'alice', 'run'), { items: [{ key: 'i', data: 1 }], events: ['e'] });
        const longest = '\u00e9'.repeat(MAX_KEY_BYTES / 2);
        await storage.records.insert({ ...key(longest, longest), createdAt: clock.now(), data: 'kept' });
        expect((await storage.records.get(key(longest, longest)))?.data).toBe('kept');
        for (const bad of ['x\u0000', '\u0000', 'x\uD800', 'x\uDC00', `${longest}\u00e9`, 'x'.repeat(MAX_KEY_BYTES + 1)]) {
          const run = key(bad, 'alice', 'run');
          expect(await storage.records.get(key(bad)), bad).toBeUndefined();
          expect(await storage.records.get(key('x\uFFFD', bad))).toBeUndefined();
          expect(await storage.records.touch(key(bad), 1_000)).toBeUndefined();
          expect(await storage.records.update(key(bad), { state: 'Done' })).toBeUndefined();
          expect(await storage.records.claim(key(bad), 'h', 1_000, { states: ['Running'] })).toBeUndefined();
          expect(await storage.records.delete(key(bad))).toBe(false);
          expect((await storage.records.list('thing', bad, { limit: 10 })).records).toEqual([]);
          expect((await storage.records.list('thing', 'alice', { limit: 10, scope: bad })).records).toEqual([]);
          expect(await storage.records.count('thing', bad)).toBe(0);
          expect(await storage.journal.items(run)).toEqual([]);
          expect(await storage.journal.events(run, 0, 10)).toEqual([]);
          expect(await storage.journal.lastSeq(run)).toBe(0);
          expect(await storage.journal.commit(run, { events: ['e'] })).toEqual({ committed: false });
          expect(await storage.blobs.get('alice', bad)).toBeUndefined();
          expect(await storage.blobs.delete(bad, 'k')).toBe(false);
          await expect(storage.records.insert({ ...key(bad), createdAt: clock.now(), data: 1 })).rejects.toBeInstanceOf(UnstorableKeyError);
          await expect(storage.records.put({ ...key('y', bad), createdAt: clock.now(), data: 1 })).rejects.toBeInstanceOf(UnstorableKeyError);
          await expect(storage.records.insert({ ...key('y'), scope: bad, createdAt: clock.now(), data: 1 })).rejects.toBeInstanceOf(UnstorableKeyError);
          await expect(storage.journal.commit(key('x\uFFFD', 'alice', 'run'), { items: [{ key: bad, data: 1 }] })).rejects.toBeInstanceOf(UnstorableKeyError);
          await expect(storage.blobs.put('alice', bad, async () => Buffer.from('x'))).rejects.toBeInstanceOf(UnstorableKeyError);
        }
        expect((await storage.records.get(key('x\uFFFD')))?.data).toBe(1);
        expect((await storage.records.list('thing', 'alice', { limit: 10, scope: 's\uFFFD' })).records.map((r) => r.id)).toEqual(['x\uFFFD']);
        expect(await storage.journal.lastSeq(key('x\uFFFD', 'alice', 'run'))).toBe(1);
      });

      it('orders records created in the same millisecond by id, so no page skips or repeats one', async () => {
        for (const id of ['b', 'd', 'a', 'c']) await storage.records.insert({ ...key(id), createdAt: clock.now(), data: id });
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof storage.records.list>> = await storage.records.list('thing', 'alice', { limit: 1, cursor });
          seen.push(...page.records.map((r) => r.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(seen).toEqual(['d', 'c', 'b', 'a']);
      });
    });

    describe('leases', () => {
      it('claims an unleased record once; another holder cannot claim it until the lease lapses', async () => {
        await storage.records.insert({ ...key('run'), state: 'Queued', createdAt: clock.now(), data: {} });
        expect((await storage.records.claim(key('run'), 'i1', 1_000, { states: ['Queued'] }))?.leaseHolder).toBe('i1');
        expect(await storage.records.claim(key('run'), 'i2', 1_000, { states: ['Queued'] })).toBeUndefined();
        expect(await storage.records.claim(key('run'), 'i2', 1_000, { states: ['Queued'], lapsedOnly: true })).toBeUndefined();
        clock.advance(1_000);
        expect((await storage.records.lapsed(['thing'], ['Queued'], 10)).map((r) => r.id)).toEqual(['run']);
        expect((await storage.records.claim(key('run'), 'i2', 1_000, { states: ['Queued'], lapsedOnly: true }))?.leaseHolder).toBe('i2');
        expect(await storage.records.lapsed(['thing'], ['Queued'], 10)).toEqual([]);
      });

      it('finds lapsed leases oldest first, at most perOwner of each owner when asked, so one owner’s backlog hides no other’s', async () => {
        const due = async (id: string, ownerId: string): Promise<void> => {
          await storage.records.insert({ ...key(id, ownerId), state: 'Pending', createdAt: clock.now(), lease: { holder: 'due', expiresAt: clock.now() }, data: {} });
          clock.advance(1);
        };
        for (const id of ['a1', 'a2', 'a3', 'a4']) await due(id, 'alice');
        await due('b1', 'bob');
        await due('c1', 'carol');
        await due('a5', 'alice');
        expect((await storage.records.lapsed(['thing'], ['Pending'], 3)).map((r) => r.id)).toEqual(['a1', 'a2', 'a3']);
        expect((await storage.records.lapsed(['thing'], ['Pending'], 10, 2)).map((r) => r.id)).toEqual(['a1', 'a2', 'b1', 'c1']);
        expect((await storage.records.lapsed(['thing'], ['Pending'], 3, 1)).map((r) => r.id)).toEqual(['a1', 'b1', 'c1']);
      });

      it('lets exactly one of many racing holders take over a lapsed lease', async () => {
        await storage.records.insert({ ...key('run'), state: 'Running', createdAt: clock.now(), lease: { holder: 'dead', expiresAt: clock.now() + 10 }, data: {} });
        clock.advance(10);
        const claims = await Promise.all(
          ['a', 'b', 'c', 'd', 'e'].map((holder) => storage.records.claim(key('run'), holder, 1_000, { states: ['Running'], lapsedOnly: true })),
        );
        expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
      });

      it('renews the leases nobody took from the holder (lapsed ones too), not those claimed by another, and releases them all on request', async () => {
        await storage.records.insert({ ...key('a'), state: 'Running', createdAt: clock.now(), lease: { holder: 'i1', expiresAt: clock.now() + 1_000 }, data: {} });
        await storage.records.insert({ ...key('b'), state: 'Running', createdAt: clock.now(), lease: { holder: 'i1', expiresAt: clock.now() + 1_000 }, data: {} });
        clock.advance(1_000);
        await storage.records.claim(key('b'), 'i2', 1_000, { states: ['Running'], lapsedOnly: true });
        const before = (await storage.records.get(key('a')))!.version;
        expect((await storage.records.renewLeases('i1', 5_000)).map((k) => k.id)).toEqual(['a']);
        expect((await storage.records.get(key('a')))?.leaseExpiresAt).toBe(clock.now() + 5_000);
        // Not a new version: a write guarded by the version read before the renewal still holds.
        expect((await storage.records.get(key('a')))?.version).toBe(before);
        expect(await storage.records.update(key('a'), { state: 'Running' }, { version: before })).toBeDefined();
        expect(await storage.records.releaseLeases('i1')).toBe(1);
        expect((await storage.records.lapsed(['thing'], ['Running'], 10)).map((r) => r.id)).toEqual(['a']);
        expect((await storage.records.claim(key('a'), 'i3', 1_000, { states: ['Running'], lapsedOnly: true }))?.leaseHolder).toBe('i3');
      });
    });

    describe('outbox', () => {
      const run = key('job', 'alice', 'run');
      const entry = (id: string, due = clock.now()) => ({
        collection: 'outbox',
        ownerId: 'alice',
        id,
        scope: 'sub-1',
        state: 'Pending',
        createdAt: clock.now(),
        lease: { holder: 'due', expiresAt: due },
        data: { event: id },
      });
      const outboxIds = async () => (await storage.records.list('outbox', 'alice', { limit: 50 })).records.map((r) => r.id).sort();

      it('writes the outbox with a journal commit, and nothing of it when the guard refuses the commit', async () => {
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        expect(await storage.journal.commit(run, { record: { patch: { state: 'Done' }, guard: { states: ['Queued'] } }, outbox: [entry('e0')] })).toEqual({ committed: false });
        expect(await outboxIds()).toEqual([]);
        const done = await storage.journal.commit(run, { events: [{ type: 'FINISHED' }], record: { patch: { state: 'Done' } }, outbox: [entry('e1'), entry('e2')] });
        expect(done.committed).toBe(true);
        expect(await outboxIds()).toEqual(['e1', 'e2']);
        expect(await storage.records.get({ collection: 'outbox', ownerId: 'alice', id: 'e1' })).toMatchObject({ scope: 'sub-1', state: 'Pending', version: 1, leaseHolder: 'due', data: { event: 'e1' } });
      });

      it('sets the expiry of the records a journal commit names, with the outbox or without, and of none when the guard refuses', async () => {
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        const plan = { collection: 'plan', ownerId: 'alice', id: 'run-plan' };
        await storage.records.insert({ ...plan, createdAt: clock.now(), data: { steps: 3 } });
        const at = clock.now() + 60_000;
        const missing = { collection: 'plan', ownerId: 'alice', id: 'never-stored' };
        expect(await storage.journal.commit(run, { record: { patch: { state: 'Done' }, guard: { states: ['Queued'] } }, expire: { keys: [plan], at } })).toEqual({ committed: false });
        expect((await storage.records.get(plan))?.expiresAt).toBeNull();
        const done = await storage.journal.commit(run, { events: [{ type: 'FINISHED' }], record: { patch: { state: 'Done', expiresAt: at } }, expire: { keys: [plan, missing], at } });
        expect(done.committed).toBe(true);
        expect((await storage.records.get(plan))?.expiresAt).toBe(at);
        expect(await storage.records.get(missing)).toBeUndefined();
        const other = { collection: 'plan', ownerId: 'alice', id: 'with-outbox' };
        await storage.records.insert({ ...other, createdAt: clock.now(), data: {} });
        expect((await storage.journal.commit(run, { events: ['x'], outbox: [entry('e9')], expire: { keys: [other], at: at + 1 } })).committed).toBe(true);
        expect((await storage.records.get(other))?.expiresAt).toBe(at + 1);
        expect(await outboxIds()).toEqual(['e9']);
      });

      it('writes the outbox with a guarded update or an insert, and only when that write happens', async () => {
        await storage.records.insert({ ...key('a'), state: 'Pending', createdAt: clock.now(), data: {} }, undefined, [entry('requested')]);
        expect(await storage.records.insert({ ...key('a'), createdAt: clock.now(), data: {} }, undefined, [entry('again')])).toMatchObject({ outcome: 'exists' });
        expect(await storage.records.update(key('a'), { state: 'Approved' }, { states: ['Rejected'] }, [entry('refused')])).toBeUndefined();
        expect(await storage.records.update(key('a'), { state: 'Approved' }, { states: ['Pending'] }, [entry('decided')])).toMatchObject({ state: 'Approved' });
        expect(await outboxIds()).toEqual(['decided', 'requested']);
      });

      it('leaves an entry whose key is live as it is, replaces an expired one, and finds entries once due as lapsed leases', async () => {
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        await storage.records.put({ ...entry('kept'), data: { event: 'first' } });
        await storage.records.put({ ...entry('stale'), expiresAt: clock.now() + 1, data: { event: 'old' } });
        clock.advance(1);
        await storage.journal.commit(run, { outbox: [entry('kept'), entry('stale'), entry('later', clock.now() + 5_000)] });
        expect((await storage.records.get<{ event: string }>({ collection: 'outbox', ownerId: 'alice', id: 'kept' }))?.data.event).toBe('first');
        expect((await storage.records.get<{ event: string }>({ collection: 'outbox', ownerId: 'alice', id: 'stale' }))?.data.event).toBe('stale');
        expect((await storage.records.lapsed(['outbox'], ['Pending'], 10)).map((r) => r.id).sort()).toEqual(['kept', 'stale']);
        clock.advance(5_000);
        expect((await storage.records.lapsed(['outbox'], ['Pending'], 10)).map((r) => r.id)).toContain('later');
      });

      it('refuses an outbox entry no provider can keep, writing nothing', async () => {
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        await expect(storage.journal.commit(run, { events: [1], outbox: [entry('bad\u0000id')] })).rejects.toBeInstanceOf(UnstorableKeyError);
        expect(await storage.journal.lastSeq(run)).toBe(0);
      });
    });

    describe('run journal', () => {
      const run = key('job', 'alice', 'run');
      beforeEach(async () => {
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: { steps: 0 } });
      });

      it('numbers events from 1 without gaps and reads them after any sequence', async () => {
        const first = await storage.journal.commit(run, { events: [{ n: 1 }, { n: 2 }] });
        expect(first).toMatchObject({ committed: true, seqs: [1, 2] });
        await storage.journal.commit(run, { events: [{ n: 3 }] });
        expect(await storage.journal.lastSeq(run)).toBe(3);
        expect(await storage.journal.events(run, 1, 10)).toEqual([{ seq: 2, event: { n: 2 } }, { seq: 3, event: { n: 3 } }]);
        expect(await storage.journal.events(run, 0, 1)).toEqual([{ seq: 1, event: { n: 1 } }]);
        expect(await storage.journal.events({ ...run, ownerId: 'mallory' }, 0, 10)).toEqual([]);
      });

      it('reads events from a fractional or negative position and without a bound, as an array slice would', async () => {
        await storage.journal.commit(run, { events: ['a', 'b', 'c'] });
        expect((await storage.journal.events(run, 1.5, Number.POSITIVE_INFINITY)).map((e) => e.seq)).toEqual([2, 3]);
        expect((await storage.journal.events(run, -5, 1)).map((e) => e.seq)).toEqual([1]);
        expect(await storage.journal.events(run, 3, 10)).toEqual([]);
        expect(await storage.journal.events(run, 0, 0)).toEqual([]);
      });

      it('commits items, events and the record patch together, or nothing when the guard refuses', async () => {
        const refused = await storage.journal.commit(run, {
          items: [{ key: 's1', data: { status: 'Succeeded' } }],
          events: [{ type: 'STEP' }],
          record: { patch: { state: 'Done' }, guard: { states: ['Queued'] } },
        });
        expect(refused.committed).toBe(false);
        expect(await storage.journal.items(run)).toEqual([]);
        expect(await storage.journal.lastSeq(run)).toBe(0);
        const done = await storage.journal.commit(run, {
          items: [{ key: 's1', data: { status: 'Succeeded' } }],
          events: [{ type: 'STEP' }],
          record: { patch: { state: 'Done', data: { steps: 1 } }, guard: { states: ['Running'] } },
        });
        expect(done.committed && done.record?.state).toBe('Done');
        await storage.journal.commit<unknown, unknown>(run, { items: [{ key: 's1', data: { status: 'Replaced' } }, { key: 's2', data: 2 }] });
        const items = await storage.journal.items(run);
        expect(items.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
          { key: 's1', data: { status: 'Replaced' } },
          { key: 's2', data: 2 },
        ]);
        expect((await storage.records.get(run))?.data).toEqual({ steps: 1 });
      });

      it('refuses a commit to a run that does not exist for that owner', async () => {
        expect((await storage.journal.commit({ ...run, ownerId: 'mallory' }, { events: [1] })).committed).toBe(false);
      });

      it('writes a record’s first items with its insert, and none when the insert is refused or finds the key taken', async () => {
        const first = key('with-items', 'alice', 'run');
        const inserted = await storage.records.insert({ ...first, state: 'Queued', createdAt: clock.now(), data: {} }, { ownerCap: { max: 100, states: ['Queued'] } }, undefined, [
          { key: 'plan', data: { steps: ['a', 'b'] } },
          { key: 'p2', data: 1 },
          { key: 'p2', data: 2 },
        ]);
        expect(inserted.outcome).toBe('inserted');
        expect((await storage.journal.items(first)).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
          { key: 'p2', data: 2 },
          { key: 'plan', data: { steps: ['a', 'b'] } },
        ]);
        expect(await storage.journal.lastSeq(first)).toBe(0);
        const again = await storage.records.insert({ ...first, state: 'Queued', createdAt: clock.now(), data: {} }, undefined, undefined, [{ key: 'plan', data: 'other' }]);
        expect(again.outcome).toBe('exists');
        expect((await storage.journal.items(first)).find((item) => item.key === 'plan')?.data).toEqual({ steps: ['a', 'b'] });
        const capped = key('capped-items', 'alice', 'run');
        const refused = await storage.records.insert({ ...capped, state: 'Queued', createdAt: clock.now(), data: {} }, { ownerCap: { max: 0, states: ['Queued'] } }, undefined, [{ key: 'plan', data: 1 }]);
        expect(refused.outcome).toBe('owner-cap');
        await storage.records.insert({ ...capped, state: 'Queued', createdAt: clock.now(), data: {} });
        expect(await storage.journal.items(capped)).toEqual([]);
      });

      it('drops items and events with their run record', async () => {
        await storage.journal.commit(run, { items: [{ key: 'x', data: 1 }], events: [1] });
        await storage.records.delete(run);
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        expect(await storage.journal.items(run)).toEqual([]);
        expect(await storage.journal.lastSeq(run)).toBe(0);
      });

      it('starts a record replaced after expiry, or swept, with an empty journal', async () => {
        const short = { ...key('short-run', 'alice', 'run') };
        for (const replace of ['insert', 'put', 'sweep'] as const) {
          await storage.records.put({ ...short, state: 'Running', createdAt: clock.now(), expiresAt: clock.now() + 10, data: {} });
          await storage.journal.commit(short, { items: [{ key: 'i', data: 1 }], events: ['e'] });
          clock.advance(10);
          if (replace === 'sweep') expect((await storage.records.sweep('run')).map((r) => r.id)).toContain('short-run');
          const fresh = { ...short, state: 'Running', createdAt: clock.now(), data: { replace } };
          if (replace === 'insert') expect((await storage.records.insert(fresh)).outcome).toBe('inserted');
          else expect((await storage.records.put(fresh)).version).toBe(1);
          expect(await storage.journal.items(short)).toEqual([]);
          expect(await storage.journal.lastSeq(short)).toBe(0);
          expect(await storage.journal.commit(short, { events: ['again'] })).toMatchObject({ committed: true, seqs: [1] });
          await storage.records.delete(short);
        }
      });

      it('tells a watcher the newest sequence after each commit that appended events', async () => {
        const heard: number[] = [];
        const stop = storage.journal.watch(run, (seq) => heard.push(seq));
        await storage.journal.commit(run, { events: ['a', 'b'] });
        await storage.journal.commit(run, { items: [{ key: 'i', data: 0 }] });
        await storage.journal.commit(run, { events: ['c'] });
        await eventually(() => heard.includes(3));
        expect(heard).toEqual([2, 3]);
        stop();
        await storage.journal.commit(run, { events: ['d'] });
        await nextTicks();
        expect(heard).toEqual([2, 3]);
      });
    });

    describe('signals, rates, slots, blobs', () => {
      it('delivers a published message to every subscriber of the topic, after publish returns', async () => {
        const heard: string[] = [];
        const stop = storage.signals.subscribe('t1', (m) => heard.push(`a:${m}`));
        storage.signals.subscribe('t2', (m) => heard.push(`b:${m}`));
        await storage.signals.publish('t1', 'hello');
        await eventually(() => heard.length >= 1);
        expect(heard).toEqual(['a:hello']);
        stop();
        await storage.signals.publish('t1', 'again');
        await nextTicks();
        expect(heard).toEqual(['a:hello']);
      });

      it('refuses a signal message over 1,000 characters', async () => {
        await storage.signals.publish('t', 'x'.repeat(1_000));
        await expect(storage.signals.publish('t', 'x'.repeat(1_001))).rejects.toBeInstanceOf(RangeError);
      });

      it('allows permitsPerMinute requests per key per fixed window and says when to retry', async () => {
        for (let i = 0; i < 3; i += 1) expect((await storage.rates.take('p', 'k', 3)).allowed).toBe(true);
        clock.advance(20_000);
        const refused = await storage.rates.take('p', 'k', 3);
        expect(refused).toEqual({ allowed: false, retryAfterSeconds: 40 });
        expect((await storage.rates.take('p', 'other', 3)).allowed).toBe(true);
        expect((await storage.rates.take('q', 'k', 3)).allowed).toBe(true);
        clock.advance(40_000);
        expect(await storage.rates.take('p', 'k', 3)).toEqual({ allowed: true, remaining: 2 });
      });

      it('counts a rate window exactly under concurrent takes', async () => {
        const results = await Promise.all(Array.from({ length: 20 }, async () => storage.rates.take('p', 'burst', 7)));
        expect(results.filter((r) => r.allowed)).toHaveLength(7);
      });

      it('adds spend to several counters at once, per owner, answering the new totals; an expired counter reads 0 and restarts', async () => {
        const day = { period: 'day:2026-05-04', expiresAt: clock.now() + 1_000 };
        const month = { period: 'month:2026-05', expiresAt: clock.now() + 5_000 };
        expect(await storage.spend.read('alice', ['day:2026-05-04', 'month:2026-05'])).toEqual([0, 0]);
        expect(await storage.spend.add('alice', [day, month], 1_500)).toEqual([1_500, 1_500]);
        expect(await storage.spend.add('alice', [day, month], 250)).toEqual([1_750, 1_750]);
        expect(await storage.spend.add('bob', [day], 7)).toEqual([7]);
        expect(await storage.spend.read('alice', ['month:2026-05', 'day:2026-05-04', 'run:x'])).toEqual([1_750, 1_750, 0]);
        clock.advance(1_000);
        expect(await storage.spend.read('alice', ['day:2026-05-04', 'month:2026-05'])).toEqual([0, 1_750]);
        expect(await storage.spend.add('alice', [{ ...day, expiresAt: clock.now() + 1_000 }, month], 10)).toEqual([10, 1_760]);
      });

      it('counts spend exactly under concurrent additions', async () => {
        const day = { period: 'day:2026-05-04', expiresAt: clock.now() + 60_000 };
        await Promise.all(Array.from({ length: 25 }, () => storage.spend.add('carol', [day], 1_000_000_001)));
        expect(await storage.spend.read('carol', ['day:2026-05-04'])).toEqual([25_000_000_025]);
      });

      it('holds at most limit slots per kind and key, frees them on release, and lets an unrenewed holder’s slots lapse', async () => {
        const a = await storage.slots.acquire('stream', 'alice', 2, 'i1', 1_000);
        const b = await storage.slots.acquire('stream', 'alice', 2, 'i1', 1_000);
        expect(a).not.toBeNull();
        expect(b).not.toBeNull();
        expect(await storage.slots.acquire('stream', 'alice', 2, 'i2', 1_000)).toBeNull();
        expect(await storage.slots.acquire('stream', 'bob', 2, 'i2', 1_000)).not.toBeNull();
        await storage.slots.release(a!);
        await storage.slots.release(a!);
        expect(await storage.slots.held('stream', 'alice')).toBe(1);
        const c = await storage.slots.acquire('stream', 'alice', 2, 'i2', 1_000);
        expect(c).not.toBeNull();
        clock.advance(600);
        expect(await storage.slots.renew('i2', 1_000)).toBe(2);
        clock.advance(600);
        expect(await storage.slots.held('stream', 'alice')).toBe(1);
        await storage.slots.releaseAll('i2');
        expect(await storage.slots.held('stream', 'alice')).toBe(0);
      });

      it('admits exactly the slot limit when acquisitions race', async () => {
        const slots = await Promise.all(Array.from({ length: 12 }, async () => storage.slots.acquire('inv', 'alice', 4, 'i1', 10_000)));
        expect(slots.filter((s) => s !== null)).toHaveLength(4);
      });

      it.runIf(options.peers)('keeps blobs per owner for other instances and gives back the same bytes', async () => {
        const bytes = Buffer.from([0, 1, 2, 255, 254]);
        await storage.blobs.put('alice', 'b1', async () => bytes);
        expect(await storage.blobs.get('alice', 'b1')).toEqual(bytes);
        expect(await subject.peer?.blobs.get('alice', 'b1')).toEqual(bytes);
        expect(await storage.blobs.get('mallory', 'b1')).toBeUndefined();
        expect(await storage.blobs.delete('alice', 'b1')).toBe(true);
        expect(await storage.blobs.get('alice', 'b1')).toBeUndefined();
      });

      it.runIf(!options.peers)('keeps no blobs when no other instance shares the storage, and never reads their bytes', async () => {
        let read = false;
        await storage.blobs.put('alice', 'b1', async () => {
          read = true;
          return Buffer.from([1]);
        });
        expect(read).toBe(false);
        expect(await storage.blobs.get('alice', 'b1')).toBeUndefined();
      });

      it('judges time by its clock: the clock it was given, driving expiry', async () => {
        const before = storage.clock.now();
        clock.advance(5_000);
        expect(storage.clock.now() - before).toBe(5_000);
      });

      it('answers ready while the backing store is reachable', async () => {
        expect(await storage.ready()).toBe(true);
      });
    });

    describe.runIf(options.peers)('another instance on the same storage', () => {
      it('sees records, journal commits and signals of the first', async () => {
        const peer = subject.peer;
        if (peer === undefined) throw new Error('the provider gave no peer');
        const run = key('shared', 'alice', 'run');
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        expect((await peer.records.get(run))?.state).toBe('Running');
        const heardSeq: number[] = [];
        const heardSignal: string[] = [];
        peer.journal.watch(run, (seq) => heardSeq.push(seq));
        peer.signals.subscribe('wake', (m) => heardSignal.push(m));
        await nextTicks();
        await storage.journal.commit(run, { events: ['x'] });
        await storage.signals.publish('wake', 'up');
        await eventually(() => heardSeq.includes(1) && heardSignal.includes('up'));
        expect(await peer.journal.events(run, 0, 10)).toEqual([{ seq: 1, event: 'x' }]);
        expect((await peer.rates.take('p', 'k', 1)).allowed).toBe(true);
        expect((await storage.rates.take('p', 'k', 1)).allowed).toBe(false);
      });

      it('admits exactly the owner cap, the slot limit and one claimant when two instances race', async () => {
        const peer = subject.peer;
        if (peer === undefined) throw new Error('the provider gave no peer');
        const rules = { ownerCap: { max: 4, states: ['Queued'] } };
        const inserts = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 === 0 ? storage : peer).records.insert({ ...key(`x${i}`), state: 'Queued', createdAt: clock.now(), data: {} }, rules),
          ),
        );
        expect(inserts.filter((r) => r.outcome === 'inserted')).toHaveLength(4);
        const slots = await Promise.all(Array.from({ length: 12 }, async (_, i) => (i % 2 === 0 ? storage : peer).slots.acquire('inv', 'bob', 3, `i${i % 2}`, 10_000)));
        expect(slots.filter((s) => s !== null)).toHaveLength(3);
        await storage.records.insert({ ...key('run'), state: 'Running', createdAt: clock.now(), lease: { holder: 'dead', expiresAt: clock.now() + 10 }, data: {} });
        clock.advance(10);
        const claims = await Promise.all(
          ['a', 'b', 'c', 'd', 'e', 'f'].map((holder, i) =>
            (i % 2 === 0 ? storage : peer).records.claim(key('run'), holder, 1_000, { states: ['Running'], lapsedOnly: true }),
          ),
        );
        expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
        const takes = await Promise.all(Array.from({ length: 20 }, async (_, i) => (i % 2 === 0 ? storage : peer).rates.take('p', 'shared', 5)));
        expect(takes.filter((t) => t.allowed)).toHaveLength(5);
        const counter = { period: 'day:shared', expiresAt: clock.now() + 60_000 };
        await Promise.all(Array.from({ length: 20 }, async (_, i) => (i % 2 === 0 ? storage : peer).spend.add('dave', [counter], 3)));
        expect(await peer.spend.read('dave', ['day:shared'])).toEqual([60]);
      });

      it('wakes a peer watching a run whose key is as long as keys may be, far longer than a channel name', async () => {
        const peer = subject.peer;
        if (peer === undefined) throw new Error('the provider gave no peer');
        const run = { collection: 'run', ownerId: `oid:${'\u00e9'.repeat((MAX_KEY_BYTES - 4) / 2)}`, id: '\u{1F600}'.repeat(MAX_KEY_BYTES / 4) };
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        const heard: number[] = [];
        const heardSignal: string[] = [];
        peer.journal.watch(run, (seq) => heard.push(seq));
        peer.signals.subscribe(`topic:${'t'.repeat(9_000)}`, (m) => heardSignal.push(m));
        await nextTicks();
        await storage.journal.commit(run, { events: ['x', 'y'] });
        await storage.signals.publish(`topic:${'t'.repeat(9_000)}`, '\u00e9'.repeat(1_000));
        await eventually(() => heard.includes(2) && heardSignal.length === 1);
        expect(heardSignal).toEqual(['\u00e9'.repeat(1_000)]);
      });

      it('numbers events without gaps when two instances commit to one run at once', async () => {
        const peer = subject.peer;
        if (peer === undefined) throw new Error('the provider gave no peer');
        const run = key('busy', 'alice', 'run');
        await storage.records.insert({ ...run, state: 'Running', createdAt: clock.now(), data: {} });
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? storage : peer).journal.commit(run, { events: [`e${i}a`, `e${i}b`] })),
        );
        const seqs = results.flatMap((r) => (r.committed ? r.seqs : [])).sort((a, b) => a - b);
        expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        expect((await peer.journal.events(run, 0, 100)).map((e) => e.seq)).toEqual(seqs);
      });
    });
  });
}
