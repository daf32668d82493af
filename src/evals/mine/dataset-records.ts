// How a caller's own datasets are laid out in the storage port's records (decision 3901), on every
// provider alike. A dataset is a head record, `eval-dataset` / <name>, in its owner's partition: which
// generation it is, its latest version and that version's case count, time and content digest. Each
// version is an immutable record, `eval-dataset-version` / `<name>@<version>:<generation>`, scoped
// `<name>:<generation>`, holding the dataset object as it was sent. A generation is minted when the head
// is created, so versions of a deleted dataset never meet those of a later one with the same name.
import type { RecordKey } from '../../platform/storage/index.js';

export const HEAD_COLLECTION = 'eval-dataset';
export const VERSION_COLLECTION = 'eval-dataset-version';
/** A head created for a first version not yet written: counted by the cap, never listed or read. */
export const EMPTY = 'Empty';
/** A head with at least one version. */
export const ACTIVE = 'Active';

export interface HeadData {
  readonly generation: string;
  /** 0 while Empty. */
  readonly latestVersion: number;
  readonly caseCount: number;
  /** When the latest version was written (epoch ms). */
  readonly updatedAt: number;
  /** contentDigest of the latest version; null while Empty. */
  readonly contentDigest: string | null;
}

export interface VersionData {
  readonly generation: string;
  readonly version: number;
  readonly caseCount: number;
  readonly contentDigest: string;
  readonly createdAt: number;
  /** The dataset object as the caller sent it (validated, never rewritten). */
  readonly dataset: unknown;
}

export const headKey = (ownerId: string, name: string): RecordKey => ({ collection: HEAD_COLLECTION, ownerId, id: name });

export const versionKey = (ownerId: string, name: string, generation: string, version: number): RecordKey => ({
  collection: VERSION_COLLECTION,
  ownerId,
  id: `${name}@${version}:${generation}`,
});

export const versionScope = (name: string, generation: string): string => `${name}:${generation}`;
