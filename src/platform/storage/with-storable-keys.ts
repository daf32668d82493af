// The storage port's rule for keys no provider can keep (storable-key.ts), applied once for every provider
// and every feature: such a key names nothing, so a read is the same miss as an unknown id (the lookup
// never reaches the database) and a list is empty; a write under one is a programming error. Rate windows
// and slots are left as they are: their keys are owner ids (the authenticator refuses unstorable ones),
// remote addresses and fixed names.
import type { BlobStore } from './blob-store.js';
import type {
  ClaimQuery,
  InsertResult,
  InsertRules,
  ListPage,
  ListQuery,
  NewRecord,
  OutboxEntry,
  RecordKey,
  RecordPatch,
  RecordStore,
  StoredRecord,
  UpdateGuard,
} from './records.js';
import type { CommitOptions, CommitResult, JournalChange, JournalEvent, JournalListener, RunItem, RunJournal } from './run-journal.js';
import type { Storage } from './storage.js';
import { isStorableKey, UnstorableKeyError } from './storable-key.js';

/** The same storage, answering unstorable keys alike on every provider. */
export function withStorableKeys(storage: Storage): Storage {
  return {
    ...storage,
    records: new StorableRecords(storage.records),
    journal: new StorableJournal(storage.journal),
    blobs: new StorableBlobs(storage.blobs),
  };
}

const storable = (key: RecordKey): boolean => isStorableKey(key.collection) && isStorableKey(key.ownerId) && isStorableKey(key.id);
const refused = (field: string): Promise<never> => Promise.reject(new UnstorableKeyError(field));
const unstorableScope = (scope: string | null | undefined): boolean => typeof scope === 'string' && !isStorableKey(scope);
/** The refusal an outbox entry earns (its key or scope cannot be kept), or undefined. */
const outboxRefusal = (outbox: readonly OutboxEntry[] | undefined): Promise<never> | undefined =>
  outbox?.some((entry) => !storable(entry) || unstorableScope(entry.scope)) === true ? refused('outbox entry') : undefined;

class StorableRecords implements RecordStore {
  readonly #records: RecordStore;

  constructor(records: RecordStore) {
    this.#records = records;
  }

  get<T>(key: RecordKey): Promise<StoredRecord<T> | undefined> {
    return storable(key) ? this.#records.get<T>(key) : Promise.resolve(undefined);
  }

  touch<T>(key: RecordKey, ttlMs: number, slackMs?: number): Promise<StoredRecord<T> | undefined> {
    return storable(key) ? this.#records.touch<T>(key, ttlMs, slackMs) : Promise.resolve(undefined);
  }

  insert<T>(record: NewRecord<T>, rules?: InsertRules, outbox?: readonly OutboxEntry[], items?: readonly RunItem[]): Promise<InsertResult<T>> {
    if (!storable(record)) return refused('record key');
    if (unstorableScope(record.scope)) return refused('record scope');
    return outboxRefusal(outbox) ?? this.#records.insert(record, rules, outbox, items);
  }

  put<T>(record: NewRecord<T>): Promise<StoredRecord<T>> {
    if (!storable(record)) return refused('record key');
    return unstorableScope(record.scope) ? refused('record scope') : this.#records.put(record);
  }

  update<T>(key: RecordKey, patch: RecordPatch<T>, guard?: UpdateGuard, outbox?: readonly OutboxEntry[]): Promise<StoredRecord<T> | undefined> {
    if (unstorableScope(patch.scope)) return refused('record scope');
    return outboxRefusal(outbox) ?? (storable(key) ? this.#records.update(key, patch, guard, outbox) : Promise.resolve(undefined));
  }

  delete(key: RecordKey): Promise<boolean> {
    return storable(key) ? this.#records.delete(key) : Promise.resolve(false);
  }

  list<T>(collection: string, ownerId: string, query: ListQuery): Promise<ListPage<T>> {
    const named = isStorableKey(collection) && isStorableKey(ownerId) && (query.scope === undefined || isStorableKey(query.scope));
    return named ? this.#records.list<T>(collection, ownerId, query) : Promise.resolve({ records: [], nextCursor: null });
  }

  count(collection: string, ownerId: string, states?: readonly string[]): Promise<number> {
    return isStorableKey(collection) && isStorableKey(ownerId) ? this.#records.count(collection, ownerId, states) : Promise.resolve(0);
  }

  sweep<T>(collection: string, limit?: number): Promise<StoredRecord<T>[]> {
    return this.#records.sweep<T>(collection, limit);
  }

  claim<T>(key: RecordKey, holder: string, ttlMs: number, query: ClaimQuery): Promise<StoredRecord<T> | undefined> {
    return storable(key) ? this.#records.claim<T>(key, holder, ttlMs, query) : Promise.resolve(undefined);
  }

  lapsed<T>(collections: readonly string[], states: readonly string[], limit: number, perOwner?: number): Promise<StoredRecord<T>[]> {
    return this.#records.lapsed<T>(collections, states, limit, perOwner);
  }

  renewLeases(holder: string, ttlMs: number): Promise<RecordKey[]> {
    return this.#records.renewLeases(holder, ttlMs);
  }

  releaseLeases(holder: string): Promise<number> {
    return this.#records.releaseLeases(holder);
  }
}

class StorableJournal implements RunJournal {
  readonly #journal: RunJournal;

  constructor(journal: RunJournal) {
    this.#journal = journal;
  }

  commit<T, R>(run: RecordKey, change: JournalChange<T, R>, options?: CommitOptions): Promise<CommitResult<R>> {
    if (change.items?.some((item) => !isStorableKey(item.key)) === true) return refused('run item key');
    if (unstorableScope(change.record?.patch.scope)) return refused('record scope');
    const outbox = outboxRefusal(change.outbox);
    if (outbox !== undefined) return outbox;
    // No run lives under such a key: the same refusal as a commit to a run that does not exist.
    return storable(run) ? this.#journal.commit(run, change, options) : Promise.resolve({ committed: false });
  }

  items<T>(run: RecordKey): Promise<RunItem<T>[]> {
    return storable(run) ? this.#journal.items<T>(run) : Promise.resolve([]);
  }

  events<E>(run: RecordKey, after: number, limit: number): Promise<JournalEvent<E>[]> {
    return storable(run) ? this.#journal.events<E>(run, after, limit) : Promise.resolve([]);
  }

  lastSeq(run: RecordKey): Promise<number> {
    return storable(run) ? this.#journal.lastSeq(run) : Promise.resolve(0);
  }

  watch(run: RecordKey, listener: JournalListener): () => void {
    return storable(run) ? this.#journal.watch(run, listener) : () => undefined;
  }
}

class StorableBlobs implements BlobStore {
  readonly #blobs: BlobStore;

  constructor(blobs: BlobStore) {
    this.#blobs = blobs;
  }

  put(ownerId: string, key: string, bytes: () => Promise<Buffer>): Promise<void> {
    return isStorableKey(ownerId) && isStorableKey(key) ? this.#blobs.put(ownerId, key, bytes) : refused('blob key');
  }

  get(ownerId: string, key: string): Promise<Buffer | undefined> {
    return isStorableKey(ownerId) && isStorableKey(key) ? this.#blobs.get(ownerId, key) : Promise.resolve(undefined);
  }

  delete(ownerId: string, key: string): Promise<boolean> {
    return isStorableKey(ownerId) && isStorableKey(key) ? this.#blobs.delete(ownerId, key) : Promise.resolve(false);
  }
}
