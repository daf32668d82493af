// Writes a dataset's next version derived from its latest (DESIGN §19 "A run becomes a case", decision
// 4001). A PUT's content is given whole (save-version.ts); an append's is the latest version's plus one
// case, so it may only follow the very version it was derived from. It claims the number after that
// version with the storage port's atomic insert; when another writer claimed it first, it reads the
// newer latest, derives again and retries. Two racing appends therefore end as two versions, the second
// holding the first's case too — neither is lost. The head moves forward as a PUT moves it, and an
// append that lands on a dataset deleted meanwhile starts over, as a PUT does. The content is derived
// before a new name's head is reserved, so an append refused by validation reserves nothing.
import type { RecordStore } from '../../platform/storage/index.js';
import { headKey, versionKey, versionScope, type HeadData, type VersionData } from './dataset-records.js';
import { advance, headOrReserve, summary, type NewContent, type SaveDeps, type VersionSummary } from './save-version.js';

export type AppendOutcome =
  | { readonly outcome: 'created' | 'versioned'; readonly version: VersionSummary }
  | { readonly outcome: 'owner-cap' }
  | { readonly outcome: 'busy' };

/** Times other writers may overtake one append (or delete its dataset) before it gives up ('busy'). */
const MAX_ATTEMPTS = 100;

/**
 * Stores `derive(latest)` as the version after `latest` — the latest version's dataset object, or
 * undefined when the dataset has none yet. `derive` may throw (a refused case); nothing is written then.
 */
export async function appendVersion(deps: SaveDeps, ownerId: string, name: string, derive: (latest: unknown) => NewContent): Promise<AppendOutcome> {
  const { records, clock } = deps;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const found = await records.get<HeadData>(headKey(ownerId, name));
    const latest = found === undefined ? null : await latestVersion(records, ownerId, name, found.data);
    // The version the head names is gone: the dataset is being deleted; read it again.
    if (latest === undefined) continue;
    const content = derive(latest?.dataset);
    const head = found ?? (await headOrReserve(deps, ownerId, name));
    if (head === undefined) return { outcome: 'owner-cap' };
    const { generation } = head.data;
    const number = (latest?.version ?? 0) + 1;
    const createdAt = clock.now();
    const candidate: VersionData = { generation, version: number, caseCount: content.caseCount, contentDigest: content.contentDigest, createdAt, dataset: content.dataset };
    const key = versionKey(ownerId, name, generation, number);
    const inserted = await records.insert<VersionData>({ ...key, scope: versionScope(name, generation), createdAt, data: candidate });
    // Another writer claimed this number first: derive again from theirs.
    if (inserted.outcome === 'exists') continue;
    if (inserted.outcome !== 'inserted') throw new Error(`inserting a dataset version answered ${inserted.outcome}`);
    const written = summary(candidate);
    if (await advance(records, ownerId, name, written)) return { outcome: number === 1 ? 'created' : 'versioned', version: written };
    // Deleted while this version was written: it goes with its dataset, and the append starts over.
    await records.delete(key);
  }
  return { outcome: 'busy' };
}

/**
 * The dataset's true latest version: the head may lag behind versions whose writers have not moved it
 * yet. Null when it has none; undefined when the version the head names is gone (deleted meanwhile).
 */
async function latestVersion(records: RecordStore, ownerId: string, name: string, head: HeadData): Promise<VersionData | null | undefined> {
  const at = (version: number) => versionKey(ownerId, name, head.generation, version);
  let latest: VersionData | null = null;
  if (head.latestVersion > 0) {
    const named = await records.get<VersionData>(at(head.latestVersion));
    if (named === undefined) return undefined;
    latest = named.data;
  }
  for (let next = await records.get<VersionData>(at((latest?.version ?? 0) + 1)); next !== undefined; next = await records.get<VersionData>(at(next.data.version + 1))) {
    latest = next.data;
  }
  return latest;
}
