// A caller's own eval datasets in the storage port (DESIGN.md §19, §11; layout in dataset-records.ts):
// save a version (save-version.ts) or append one derived from the latest (append-version.ts), read a dataset's head and versions, list the owner's datasets and
// delete one with all its versions. Every key carries the owner, so foreign is unknown by construction.
import type { IdGenerator } from '../../platform/clock/index.js';
import type { Storage } from '../../platform/storage/index.js';
import { ACTIVE, HEAD_COLLECTION, headKey, VERSION_COLLECTION, versionKey, versionScope, type HeadData, type VersionData } from './dataset-records.js';
import { appendVersion, type AppendOutcome } from './append-version.js';
import { saveVersion, type NewContent, type SaveOutcome } from './save-version.js';

/** At most this many datasets per owner (DESIGN.md §19). */
export const MAX_DATASETS_PER_OWNER = 100;
const DELETE_PAGE = 200;

export interface OwnDatasetEntry {
  readonly name: string;
  readonly head: HeadData;
}

export class OwnDatasetStore {
  readonly #storage: Storage;
  readonly #ids: IdGenerator;
  readonly #maxPerOwner: number;

  constructor(options: { readonly storage: Storage; readonly ids: IdGenerator; readonly maxPerOwner?: number }) {
    this.#storage = options.storage;
    this.#ids = options.ids;
    this.#maxPerOwner = options.maxPerOwner ?? MAX_DATASETS_PER_OWNER;
  }

  /** The most datasets one owner may keep. */
  get maxPerOwner(): number {
    return this.#maxPerOwner;
  }

  save(ownerId: string, name: string, content: NewContent): Promise<SaveOutcome> {
    const { records, clock } = this.#storage;
    return saveVersion({ records, clock, ids: this.#ids, maxPerOwner: this.#maxPerOwner }, ownerId, name, content);
  }

  /** Stores `derive(latest dataset object)` as the version after the latest, deriving again when overtaken. */
  append(ownerId: string, name: string, derive: (latest: unknown) => NewContent): Promise<AppendOutcome> {
    const { records, clock } = this.#storage;
    return appendVersion({ records, clock, ids: this.#ids, maxPerOwner: this.#maxPerOwner }, ownerId, name, derive);
  }

  /** The dataset's head, once it has a version. */
  async head(ownerId: string, name: string): Promise<HeadData | undefined> {
    const head = await this.#storage.records.get<HeadData>(headKey(ownerId, name));
    return head?.state === ACTIVE ? head.data : undefined;
  }

  /** One version the head has reached (a version written but not yet on the head is not shown). */
  async version(ownerId: string, name: string, head: HeadData, version: number): Promise<VersionData | undefined> {
    if (version < 1 || version > head.latestVersion) return undefined;
    return (await this.#storage.records.get<VersionData>(versionKey(ownerId, name, head.generation, version)))?.data;
  }

  /** The owner's datasets, newest first by when each was created. */
  async list(ownerId: string, page: { readonly limit: number; readonly cursor: string | null }): Promise<{ entries: OwnDatasetEntry[]; nextCursor: string | null }> {
    const found = await this.#storage.records.list<HeadData>(HEAD_COLLECTION, ownerId, { states: [ACTIVE], ...page });
    return { entries: found.records.map((record) => ({ name: record.id, head: record.data })), nextCursor: found.nextCursor };
  }

  /** Deletes the dataset and its versions; true when it had a version (an unknown or Empty head is a miss). */
  async delete(ownerId: string, name: string): Promise<boolean> {
    const { records } = this.#storage;
    const key = headKey(ownerId, name);
    for (;;) {
      const head = await records.get<HeadData>(key);
      if (head === undefined) return false;
      // Ended only if nobody changed it since it was read (a guarded delete): expired at the epoch, it
      // is absent at once on every instance whatever their clocks, and a new PUT replaces it.
      if ((await records.update<HeadData>(key, { expiresAt: 0 }, { version: head.version })) === undefined) continue;
      await this.#dropVersions(ownerId, name, head.data.generation);
      return head.state === ACTIVE;
    }
  }

  async #dropVersions(ownerId: string, name: string, generation: string): Promise<void> {
    const { records } = this.#storage;
    for (;;) {
      const page = await records.list<VersionData>(VERSION_COLLECTION, ownerId, { scope: versionScope(name, generation), limit: DELETE_PAGE });
      await Promise.all(page.records.map((record) => records.delete(record)));
      if (page.nextCursor === null) return;
    }
  }

  /** Removes the heads of deleted datasets (each is already absent to every read). */
  async sweep(): Promise<void> {
    await this.#storage.records.sweep(HEAD_COLLECTION);
  }
}
