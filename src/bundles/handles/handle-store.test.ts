import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import { createMemoryStorage, type Storage } from '../../platform/storage/index.js';
import type { BundleManifest } from '../../agent/index.js';
import { HandleStore, type NewHandle } from './handle-store.js';
import { StagingLeases } from './staging-leases.js';
import { keptBlobs } from '../../../test/helpers/kept-blobs.js';

const MINUTE = 60_000;
const quiet = { warn: () => undefined };
let root: string;
let clock: ManualClock;
let storage: Storage;
let store: HandleStore;

const manifest = (id: string): BundleManifest => ({
  id,
  name: null,
  description: null,
  version: null,
  systemPrompt: '',
  skillIds: null,
  allowedTools: null,
  requireApproval: null,
  skills: [],
  plugins: [],
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'portcullis-handle-store-'));
  clock = new ManualClock();
  storage = createMemoryStorage({ clock });
  store = new HandleStore({ storage, clock, handleTtlMs: 10 * MINUTE, staging: new StagingLeases({ log: quiet }), stager: { restage: async () => null } });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

async function add(id: string, ownerId = 'owner', into = store): Promise<NewHandle> {
  const dir = join(root, id);
  await mkdir(dir, { recursive: true });
  const handle: NewHandle = { handle: id, ownerId, dir, systemPrompt: '', createdAt: clock.now(), manifest: manifest(id) };
  await into.add(handle, async () => Buffer.from(`zip of ${id}`));
  return handle;
}

describe('HandleStore', () => {
  it('returns the expiresAt floor and slides the TTL on touch; foreign owners see nothing', async () => {
    expect(await store.add({ ...(await add('tmp')), handle: 'h' }, async () => Buffer.alloc(0))).toBe(clock.now() + 10 * MINUTE);
    clock.advance(9 * MINUTE);
    expect(await store.touch({ ownerId: 'owner' }, 'h')).toMatchObject({ handle: 'h', expiresAt: clock.now() + 10 * MINUTE });
    expect(await store.touch({ ownerId: 'intruder' }, 'h')).toBeUndefined();
    clock.advance(9 * MINUTE);
    expect(await store.touch({ ownerId: 'owner' }, 'h')).toBeDefined();
  });

  it('lists the caller’s live handles newest first, a page at a time', async () => {
    await add('one');
    clock.advance(1);
    await add('two');
    await add('theirs', 'other');
    const first = await store.list({ ownerId: 'owner' }, { limit: 1, cursor: null });
    expect(first.handles.map((h) => h.handle)).toEqual(['two']);
    const next = await store.list({ ownerId: 'owner' }, { limit: 1, cursor: first.nextCursor });
    expect(next.handles.map((h) => h.handle)).toEqual(['one']);
  });

  it('sweeps expired handles and removes their directories, leaving live ones', async () => {
    await add('old');
    clock.advance(5 * MINUTE);
    await add('young');
    clock.advance(5 * MINUTE);
    expect(await store.sweep()).toBe(1);
    expect(await readdir(root)).toEqual(['young']);
  });

  it('keeps a leased directory past expiry and removes it when the last lease is released', async () => {
    await add('busy');
    const leased = await store.lease({ ownerId: 'owner' }, 'busy');
    expect(leased).not.toBeNull();
    clock.advance(10 * MINUTE);
    await store.sweep();
    expect(await readdir(root)).toEqual(['busy']);
    expect(await store.lease({ ownerId: 'owner' }, 'busy')).toBeNull();
    leased!.lease.release();
    leased!.lease.release();
    await store.touch({ ownerId: 'owner' }, 'anything');
    expect(await readdir(root)).toEqual([]);
  });

  it('removes a deleted handle’s directory at once when nothing leases it', async () => {
    await add('gone');
    await store.remove({ ownerId: 'intruder' }, 'gone');
    expect(await readdir(root)).toEqual(['gone']);
    await store.remove({ ownerId: 'owner' }, 'gone');
    expect(await readdir(root)).toEqual([]);
  });

  it('on a shared storage stages a handle registered through another instance from its stored archive, and retires that copy once the handle is deleted there', async () => {
    const shared: Storage = { ...createMemoryStorage({ clock }), durable: true, blobs: keptBlobs() };
    const restaged: string[] = [];
    const a = new HandleStore({ storage: shared, clock, handleTtlMs: 10 * MINUTE, staging: new StagingLeases({ log: quiet }), stager: { restage: async () => null } });
    const b = new HandleStore({
      storage: shared,
      clock,
      handleTtlMs: 10 * MINUTE,
      staging: new StagingLeases({ log: quiet }),
      stager: {
        restage: async (handle, archive) => {
          restaged.push(`${handle.handle}:${archive.toString()}`);
          const dir = join(root, 'on-b', handle.handle);
          await mkdir(dir, { recursive: true });
          return dir;
        },
      },
    });
    await add('h', 'owner', a);
    const leased = await b.lease({ ownerId: 'owner' }, 'h');
    expect(restaged).toEqual(['h:zip of h']);
    expect(leased?.lease.dir).toBe(join(root, 'on-b', 'h'));
    expect(await b.lease({ ownerId: 'mallory' }, 'h')).toBeNull();
    leased!.lease.release();
    await a.remove({ ownerId: 'owner' }, 'h');
    expect(await shared.blobs.get('owner', 'h')).toBeUndefined();
    await b.sweep();
    expect(await readdir(join(root, 'on-b'))).toEqual([]);
  });

  it('slides a polled handle with a lag of at most 1 % of its TTL (6 s of 10 minutes): the expiry is a floor', async () => {
    const stored = async () => storage.records.get({ collection: 'bundle-handle', ownerId: 'owner', id: 'p' });
    await add('p');
    clock.advance(5 * MINUTE);
    await store.slide({ ownerId: 'owner' }, 'p');
    const slidAt = clock.now();
    expect((await stored())?.expiresAt).toBe(slidAt + 10 * MINUTE);
    clock.advance(6_000);
    await store.slide({ ownerId: 'owner' }, 'p');
    expect((await stored())?.expiresAt).toBe(slidAt + 10 * MINUTE);
    clock.advance(1);
    await store.slide({ ownerId: 'owner' }, 'p');
    expect((await stored())?.expiresAt).toBe(clock.now() + 10 * MINUTE);
    expect(await store.touch({ ownerId: 'intruder' }, 'p')).toBeUndefined();
  });

  it('says a poll\'s slide is done at once only while the expiry it saw is within the granularity and nothing is being removed', async () => {
    const staging = new StagingLeases({ log: quiet });
    const c = new HandleStore({ storage, clock, handleTtlMs: 10 * MINUTE, staging, stager: { restage: async () => null } });
    await add('r');
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(false); // never seen here: slide reads it
    await c.slide({ ownerId: 'owner' }, 'r');
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(true);
    expect(c.slidNow({ ownerId: 'intruder' }, 'r')).toBe(false);
    clock.advance(6_000);
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(true);
    clock.advance(1);
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(false); // due a write: slide makes it
    await c.slide({ ownerId: 'owner' }, 'r');
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(true);
    const dir = join(root, 'leaving');
    await mkdir(dir);
    staging.track('leaving', 'owner', dir);
    staging.retire('leaving');
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(false); // a removal under way is waited for
    await staging.settled();
    expect(c.slidNow({ ownerId: 'owner' }, 'r')).toBe(true);
  });

  it('has one instance write a polled handle\'s slide per granularity: another sees the fresh expiry and writes nothing', async () => {
    const b = new HandleStore({ storage, clock, handleTtlMs: 10 * MINUTE, staging: new StagingLeases({ log: quiet }), stager: { restage: async () => null } });
    const stored = async () => storage.records.get({ collection: 'bundle-handle', ownerId: 'owner', id: 'q' });
    await add('q');
    clock.advance(MINUTE);
    await store.slide({ ownerId: 'owner' }, 'q');
    const afterA = await stored();
    clock.advance(2_000);
    await b.slide({ ownerId: 'owner' }, 'q');
    expect(await stored()).toEqual(afterA); // b read it fresh: no write, the same version
    clock.advance(4_001);
    await b.slide({ ownerId: 'owner' }, 'q');
    expect((await stored())?.expiresAt).toBe(clock.now() + 10 * MINUTE);
    expect((await stored())?.version).toBe(afterA!.version + 1);
  });

  it('a poll of a handle gone from the storage (deleted through another instance) removes the copy staged here before it answers', async () => {
    const { dir } = await add('gone');
    await storage.records.delete({ collection: 'bundle-handle', ownerId: 'owner', id: 'gone' });
    await store.slide({ ownerId: 'intruder' }, 'gone');
    expect(await readdir(root)).toEqual(['gone']);
    await store.slide({ ownerId: 'owner' }, 'gone');
    expect(await readdir(root)).toEqual([]);
    expect(dir).toBe(join(root, 'gone'));
  });
});
