import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import type { BundleHandle } from './bundle-handle.js';
import { HandleStore } from './handle-store.js';
import { StagingLeases } from './staging-leases.js';

const MINUTE = 60_000;
let root: string;
let clock: ManualClock;
let store: HandleStore;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'portcullis-handle-store-'));
  clock = new ManualClock();
  store = new HandleStore({ clock, handleTtlMs: 10 * MINUTE, leases: new StagingLeases({ log: { warn: () => undefined } }) });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

async function add(id: string, ownerId = 'owner'): Promise<BundleHandle> {
  const dir = join(root, id);
  await mkdir(dir);
  const handle: BundleHandle = {
    handle: id,
    ownerId,
    dir,
    systemPrompt: '',
    createdAt: clock.now(),
    manifest: { id, name: null, description: null, version: null, systemPrompt: '', skillIds: null, allowedTools: null, skills: [], plugins: [] },
  };
  await store.add(handle);
  return handle;
}

describe('HandleStore', () => {
  it('returns the expiresAt floor and slides the TTL on touch; foreign owners see nothing', async () => {
    expect(await store.add({ ...(await add('tmp')), handle: 'h' })).toBe(clock.now() + 10 * MINUTE);
    clock.advance(9 * MINUTE);
    expect(await store.touch({ ownerId: 'owner' }, 'h')).toBeDefined();
    expect(await store.touch({ ownerId: 'intruder' }, 'h')).toBeUndefined();
    clock.advance(9 * MINUTE);
    expect(await store.touch({ ownerId: 'owner' }, 'h')).toBeDefined();
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
});
