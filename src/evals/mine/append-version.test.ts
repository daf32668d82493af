import { describe, expect, it } from 'vitest';
import { ManualClock, sequentialIds } from '../../platform/clock/index.js';
import { createMemoryStorage } from '../../platform/storage/index.js';
import { contentDigest } from './content-digest.js';
import { versionKey, versionScope } from './dataset-records.js';
import { OwnDatasetStore } from './dataset-store.js';

type Dataset = { cases: Array<{ id: string }> };

function setup(maxPerOwner?: number) {
  const storage = createMemoryStorage({ clock: new ManualClock(Date.UTC(2026, 11, 1)) });
  return { storage, store: new OwnDatasetStore({ storage, ids: sequentialIds('gen'), ...(maxPerOwner === undefined ? {} : { maxPerOwner }) }) };
}

/** A derive that appends case `id` to what it is given, remembering what it saw. */
function adding(id: string, seen: unknown[] = []) {
  return (latest: unknown) => {
    seen.push(latest);
    const dataset: Dataset = { cases: [...((latest as Dataset | undefined)?.cases ?? []), { id }] };
    return { dataset, caseCount: dataset.cases.length, contentDigest: contentDigest(dataset) };
  };
}

async function latestCases(store: OwnDatasetStore, name: string): Promise<{ version: number; ids: string[] }> {
  const head = (await store.head('alice', name))!;
  const version = (await store.version('alice', name, head, head.latestVersion))!;
  return { version: version.version, ids: (version.dataset as Dataset).cases.map((c) => c.id) };
}

describe('appendVersion', () => {
  it('creates a missing dataset with the derived content as version 1, then appends after the latest', async () => {
    const { store } = setup();
    const seen: unknown[] = [];
    expect(await store.append('alice', 'faq', adding('a', seen))).toMatchObject({ outcome: 'created', version: { version: 1, caseCount: 1 } });
    expect(await store.append('alice', 'faq', adding('b', seen))).toMatchObject({ outcome: 'versioned', version: { version: 2, caseCount: 2 } });
    expect(seen).toEqual([undefined, { cases: [{ id: 'a' }] }]);
    expect(await latestCases(store, 'faq')).toEqual({ version: 2, ids: ['a', 'b'] });
  });

  it('ends racing appends as one version each, every later one holding the earlier cases', async () => {
    const { store } = setup();
    await store.append('alice', 'faq', adding('first'));
    const outcomes = await Promise.all(['x', 'y', 'z'].map((id) => store.append('alice', 'faq', adding(id))));
    expect(outcomes.map((o) => (o.outcome === 'versioned' ? o.version.version : o.outcome)).sort()).toEqual([2, 3, 4]);
    const latest = await latestCases(store, 'faq');
    expect(latest.version).toBe(4);
    expect(latest.ids[0]).toBe('first');
    expect([...latest.ids].sort()).toEqual(['first', 'x', 'y', 'z']);
  });

  it('lets racing appends create a missing dataset together without losing a case', async () => {
    const { store } = setup();
    const outcomes = await Promise.all([store.append('alice', 'new', adding('a')), store.append('alice', 'new', adding('b'))]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['created', 'versioned']);
    expect([...(await latestCases(store, 'new')).ids].sort()).toEqual(['a', 'b']);
  });

  it('reserves nothing when the derivation refuses the case', async () => {
    const { store } = setup(1);
    const refuse = () => {
      throw new Error('refused');
    };
    await expect(store.append('alice', 'refused', refuse)).rejects.toThrow('refused');
    // The one dataset this owner may keep is still free.
    expect(await store.append('alice', 'other', adding('a'))).toMatchObject({ outcome: 'created' });
    expect(await store.append('alice', 'third', adding('a'))).toEqual({ outcome: 'owner-cap' });
  });

  it('follows a version written after the one the head names (its writer has not moved the head yet)', async () => {
    const { store, storage } = setup();
    await store.append('alice', 'faq', adding('a'));
    const head = (await store.head('alice', 'faq'))!;
    const lagging = { cases: [{ id: 'a' }, { id: 'unseen' }] };
    const data = { generation: head.generation, version: 2, caseCount: 2, contentDigest: contentDigest(lagging), createdAt: 0, dataset: lagging };
    await storage.records.insert({ ...versionKey('alice', 'faq', head.generation, 2), scope: versionScope('faq', head.generation), createdAt: 0, data });
    const seen: unknown[] = [];
    expect(await store.append('alice', 'faq', adding('b', seen))).toMatchObject({ outcome: 'versioned', version: { version: 3 } });
    expect(seen).toEqual([lagging]);
    expect(await latestCases(store, 'faq')).toEqual({ version: 3, ids: ['a', 'unseen', 'b'] });
  });
});
