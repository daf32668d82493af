import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { MemoryTtlStore } from '../store/index.js';
import { ProblemError, toProblem } from '../problems/index.js';
import { OwnedStore } from './owned-store.js';

const alice = { ownerId: 'sub:alice' };
const mallory = { ownerId: 'sub:mallory' };
const DETAIL = 'Bundle handle not found or expired. Register the bundle again to obtain a fresh handle.';

function store() {
  const clock = new ManualClock();
  return { clock, owned: new OwnedStore<{ value: string }>(new MemoryTtlStore({ clock })) };
}

async function rejection(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return error;
  }
  throw new Error('expected a ProblemError');
}

describe('OwnedStore', () => {
  it('finds a resource for its owner', async () => {
    const { owned } = store();
    await owned.put(alice, 'h1', { value: 'x' }, 60_000);
    expect(await owned.require(alice, 'h1', DETAIL)).toEqual({ value: 'x' });
  });

  it('answers a foreign, an unknown and an expired id with byte-identical problems', async () => {
    const { owned, clock } = store();
    await owned.put(alice, 'h1', { value: 'x' }, 60_000);
    await owned.put(alice, 'h2', { value: 'y' }, 1_000);
    clock.advance(1_000);
    const foreign = toProblem(await rejection(owned.require(mallory, 'h1', DETAIL)), '/api/bundles/id');
    const unknown = toProblem(await rejection(owned.require(alice, 'nope', DETAIL)), '/api/bundles/id');
    const expired = toProblem(await rejection(owned.require(alice, 'h2', DETAIL)), '/api/bundles/id');
    expect(JSON.stringify(foreign)).toBe(JSON.stringify(unknown));
    expect(JSON.stringify(expired)).toBe(JSON.stringify(unknown));
    expect(foreign.status).toBe(404);
  });

  it('never lets one owner remove or refresh another owner’s resource', async () => {
    const { owned } = store();
    await owned.put(alice, 'h1', { value: 'x' }, 60_000);
    expect(await owned.remove(mallory, 'h1')).toBe(false);
    expect(await owned.touch(mallory, 'h1', 60_000)).toBeUndefined();
    expect(await owned.find(alice, 'h1')).toEqual({ value: 'x' });
  });

  it('keeps owner keys of different claim families apart', async () => {
    const { owned } = store();
    await owned.put({ ownerId: 'oid:abc' }, 'h1', { value: 'x' }, 60_000);
    expect(await owned.find({ ownerId: 'name:abc' }, 'h1')).toBeUndefined();
  });
});
