// Writes a dataset's next version so that concurrent PUTs of one name never lose a write (decision
// 3901): each ends as its own version, or as the version already holding equal content, never one
// overwriting another. A version number is claimed by inserting its immutable record (the storage
// port's insert is atomic: of two writers of one number, one inserts and the other sees it exist);
// the head then moves forward to it under a version guard, never back. A head created for a new name
// counts against the per-owner cap atomically with its insert.
import type { Clock, IdGenerator } from '../../platform/clock/index.js';
import type { RecordStore, StoredRecord } from '../../platform/storage/index.js';
import { ACTIVE, EMPTY, headKey, versionKey, versionScope, type HeadData, type VersionData } from './dataset-records.js';

export interface NewContent {
  readonly dataset: unknown;
  readonly caseCount: number;
  readonly contentDigest: string;
}

/** A version without its dataset: what a PUT answers. */
export type VersionSummary = Omit<VersionData, 'dataset'>;

export type SaveOutcome =
  | { readonly outcome: 'created' | 'versioned' | 'unchanged'; readonly version: VersionSummary }
  | { readonly outcome: 'owner-cap' }
  | { readonly outcome: 'busy' };

export interface SaveDeps {
  readonly records: RecordStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly maxPerOwner: number;
}

/** Starts over when the dataset was deleted under this write; gives up ('busy') after this many. */
const MAX_ATTEMPTS = 8;
/** Versions other writers may claim ahead of this one within one attempt before it gives up. */
const MAX_OVERTAKEN = 100;

type Latest = Omit<VersionSummary, 'contentDigest'> & { readonly contentDigest: string | null };

export async function saveVersion(deps: SaveDeps, ownerId: string, name: string, content: NewContent): Promise<SaveOutcome> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const head = await headOrReserve(deps, ownerId, name);
    if (head === undefined) return { outcome: 'owner-cap' };
    const written = await append(deps, ownerId, name, head.data, content);
    if (written === undefined) return { outcome: 'busy' };
    if (await advance(deps.records, ownerId, name, written.version)) {
      const outcome = !written.inserted ? 'unchanged' : written.version.version === 1 ? 'created' : 'versioned';
      return { outcome, version: written.version };
    }
    // Deleted while this version was written: the version goes with its dataset, and the write starts
    // again on a new one (as if it came after the DELETE).
    if (written.inserted) await deps.records.delete(versionKey(ownerId, name, written.version.generation, written.version.version));
  }
  return { outcome: 'busy' };
}

/** The dataset's head, or a new Empty one counted against the owner's cap (undefined: the cap is reached). */
export async function headOrReserve(deps: SaveDeps, ownerId: string, name: string): Promise<StoredRecord<HeadData> | undefined> {
  const key = headKey(ownerId, name);
  const found = await deps.records.get<HeadData>(key);
  if (found !== undefined) return found;
  const now = deps.clock.now();
  const head: HeadData = { generation: deps.ids.opaque(), latestVersion: 0, caseCount: 0, updatedAt: now, contentDigest: null };
  const result = await deps.records.insert<HeadData>({ ...key, state: EMPTY, createdAt: now, data: head }, { ownerCap: { max: deps.maxPerOwner, states: [EMPTY, ACTIVE] } });
  return result.outcome === 'inserted' || result.outcome === 'exists' ? result.record : undefined;
}

/** The version holding this content: the latest when it is equal, else a new one after it. */
async function append(deps: SaveDeps, ownerId: string, name: string, head: HeadData, content: NewContent): Promise<{ version: VersionSummary; inserted: boolean } | undefined> {
  const { records, clock } = deps;
  const { generation } = head;
  const at = (version: number) => versionKey(ownerId, name, generation, version);
  // The head may lag behind versions already written (their writers have not moved it yet): the
  // latest is the last of those, so equal content is compared with the true latest.
  let latest: Latest = { generation, version: head.latestVersion, caseCount: head.caseCount, createdAt: head.updatedAt, contentDigest: head.contentDigest };
  for (let next = await records.get<VersionData>(at(latest.version + 1)); next !== undefined; next = await records.get<VersionData>(at(latest.version + 1))) {
    latest = summary(next.data);
  }
  for (let overtaken = 0; overtaken <= MAX_OVERTAKEN; overtaken += 1) {
    if (latest.contentDigest === content.contentDigest) return { version: { ...latest, contentDigest: content.contentDigest }, inserted: false };
    const createdAt = clock.now();
    const candidate: VersionData = { generation, version: latest.version + 1, caseCount: content.caseCount, contentDigest: content.contentDigest, createdAt, dataset: content.dataset };
    const result = await records.insert<VersionData>({ ...at(candidate.version), scope: versionScope(name, generation), createdAt, data: candidate });
    if (result.outcome === 'inserted') return { version: summary(candidate), inserted: true };
    if (result.outcome !== 'exists') throw new Error(`inserting a dataset version answered ${result.outcome}`);
    // Another writer claimed this number first: theirs is now the latest this write follows.
    latest = summary(result.record.data);
  }
  return undefined;
}

/** Moves the head forward to `version` (never back); false when the dataset it belongs to is gone. */
export async function advance(records: RecordStore, ownerId: string, name: string, version: VersionSummary): Promise<boolean> {
  const key = headKey(ownerId, name);
  for (;;) {
    const head = await records.get<HeadData>(key);
    if (head === undefined || head.data.generation !== version.generation) return false;
    if (head.data.latestVersion >= version.version) return true;
    const data: HeadData = {
      generation: version.generation,
      latestVersion: version.version,
      caseCount: version.caseCount,
      updatedAt: version.createdAt,
      contentDigest: version.contentDigest,
    };
    if ((await records.update<HeadData>(key, { state: ACTIVE, data }, { version: head.version })) !== undefined) return true;
  }
}

export function summary(version: VersionData): VersionSummary {
  const { dataset: _dataset, ...rest } = version;
  return rest;
}
