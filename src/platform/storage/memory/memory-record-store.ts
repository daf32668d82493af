// RecordStore for one process (the Memory provider). Synchronous work behind the async contract, so a
// check-and-insert cannot be overtaken by another request: the same atomicity PostgreSQL gives with a
// transaction.
import { compareNewestFirst, decodeCursor, encodeCursor, isAfterCursor } from '../list-cursor.js';
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
} from '../records.js';
import type { RunItem } from '../run-journal.js';
import { deepFreezeJson } from '../deep-freeze-json.js';
import type { MemoryTable } from './memory-table.js';

export class MemoryRecordStore implements RecordStore {
  readonly #table: MemoryTable;

  constructor(table: MemoryTable) {
    this.#table = table;
  }

  get<T>(key: RecordKey): Promise<StoredRecord<T> | undefined> {
    return settle(() => this.#table.liveRow(key)?.record as StoredRecord<T> | undefined);
  }

  touch<T>(key: RecordKey, ttlMs: number, slackMs = 0): Promise<StoredRecord<T> | undefined> {
    return settle(() => {
      assertTtl(ttlMs);
      const row = this.#table.liveRow(key);
      if (row === undefined) return undefined;
      const expiresAt = this.#table.clock.now() + ttlMs;
      const current = row.record.expiresAt;
      if (slackMs > 0 && current !== null && current >= expiresAt - slackMs) return row.record as StoredRecord<T>;
      return this.#table.apply(row, { expiresAt }) as StoredRecord<T>;
    });
  }

  insert<T>(record: NewRecord<T>, rules?: InsertRules, outbox?: readonly OutboxEntry[], items?: readonly RunItem[]): Promise<InsertResult<T>> {
    return settle((): InsertResult<T> => {
      const existing = this.#table.liveRow(record);
      if (existing !== undefined) return { outcome: 'exists', record: existing.record as StoredRecord<T> };
      // The owner's other records are read only when a rule needs them (an insert without rules, such as
      // an idempotency key's, costs nothing per record the owner already has).
      const siblings = rules?.exclusiveScope === undefined && rules?.ownerCap === undefined ? [] : this.#table.ownerRows(record.collection, record.ownerId);
      const exclusive = rules?.exclusiveScope;
      if (
        exclusive !== undefined &&
        siblings.some((row) => row.record.scope === (record.scope ?? null) && row.record.state !== null && exclusive.states.includes(row.record.state))
      ) {
        return { outcome: 'scope-busy' };
      }
      const cap = rules?.ownerCap;
      if (cap !== undefined && siblings.filter((row) => row.record.state !== null && cap.states.includes(row.record.state)).length >= cap.max) {
        return { outcome: 'owner-cap' };
      }
      this.#table.remove(record); // an expired predecessor
      const row = this.#table.create(record);
      for (const item of items ?? []) row.items.set(item.key, deepFreezeJson(item.data));
      const inserted = row.record as StoredRecord<T>;
      this.#table.writeOutbox(outbox);
      return { outcome: 'inserted', record: inserted };
    });
  }

  put<T>(record: NewRecord<T>): Promise<StoredRecord<T>> {
    return settle(() => {
      const existing = this.#table.liveRow(record);
      if (existing === undefined) {
        this.#table.remove(record);
        return this.#table.create(record).record as StoredRecord<T>;
      }
      return this.#table.apply(existing, {
        scope: record.scope ?? null,
        state: record.state ?? null,
        expiresAt: record.expiresAt ?? null,
        data: record.data,
        ...(record.lease !== undefined ? { lease: record.lease } : {}),
      }) as StoredRecord<T>;
    });
  }

  update<T>(key: RecordKey, patch: RecordPatch<T>, guard?: UpdateGuard, outbox?: readonly OutboxEntry[]): Promise<StoredRecord<T> | undefined> {
    return settle(() => {
      const row = this.#table.liveRow(key);
      if (row === undefined || !this.#table.passes(row.record, guard)) return undefined;
      const updated = this.#table.apply(row, patch) as StoredRecord<T>;
      this.#table.writeOutbox(outbox);
      return updated;
    });
  }

  delete(key: RecordKey): Promise<boolean> {
    return settle(() => {
      const live = this.#table.liveRow(key) !== undefined;
      this.#table.remove(key);
      return live;
    });
  }

  list<T>(collection: string, ownerId: string, query: ListQuery): Promise<ListPage<T>> {
    return settle(() => {
      const after = query.cursor ? decodeCursor(query.cursor) : null;
      const records = this.#table
        .ownerRows(collection, ownerId)
        .map((row) => row.record)
        .filter(
          (record) =>
            (query.scope === undefined || record.scope === query.scope) &&
            (query.states === undefined || (record.state !== null && query.states.includes(record.state))) &&
            (after === null || isAfterCursor(record, after)),
        )
        .sort(compareNewestFirst)
        .slice(0, query.limit) as StoredRecord<T>[];
      const last = records.at(-1);
      return { records, nextCursor: records.length === query.limit && last !== undefined ? encodeCursor(last) : null };
    });
  }

  count(collection: string, ownerId: string, states?: readonly string[]): Promise<number> {
    return settle(
      () =>
        this.#table.ownerRows(collection, ownerId).filter((row) => states === undefined || (row.record.state !== null && states.includes(row.record.state)))
          .length,
    );
  }

  sweep<T>(collection: string, limit = Number.POSITIVE_INFINITY): Promise<StoredRecord<T>[]> {
    return settle(() => {
      const expired: StoredRecord<T>[] = [];
      for (const row of this.#table.collectionRows(collection)) {
        if (expired.length >= limit) break;
        if (this.#table.isLive(row.record)) continue;
        expired.push(row.record as StoredRecord<T>);
      }
      for (const record of expired) this.#table.remove(record);
      return expired;
    });
  }

  claim<T>(key: RecordKey, holder: string, ttlMs: number, query: ClaimQuery): Promise<StoredRecord<T> | undefined> {
    return settle(() => {
      assertTtl(ttlMs);
      const row = this.#table.liveRow(key);
      if (row === undefined) return undefined;
      const { record } = row;
      if (record.state === null || !query.states.includes(record.state)) return undefined;
      const now = this.#table.clock.now();
      const lapsed = record.leaseHolder !== null && record.leaseExpiresAt !== null && record.leaseExpiresAt <= now;
      const free = record.leaseHolder === null || lapsed;
      if (query.lapsedOnly === true ? !lapsed : !free && record.leaseHolder !== holder) return undefined;
      return this.#table.apply(row, { lease: { holder, expiresAt: now + ttlMs } }) as StoredRecord<T>;
    });
  }

  lapsed<T>(collections: readonly string[], states: readonly string[], limit: number, perOwner?: number): Promise<StoredRecord<T>[]> {
    return settle(() => {
      const now = this.#table.clock.now();
      const found: StoredRecord<T>[] = [];
      for (const collection of collections) {
        for (const row of this.#table.collectionRows(collection)) {
          const { record } = row;
          if (!this.#table.isLive(record) || record.state === null || !states.includes(record.state)) continue;
          if (record.leaseHolder !== null && record.leaseExpiresAt !== null && record.leaseExpiresAt <= now) found.push(record as StoredRecord<T>);
        }
      }
      found.sort((a, b) => (a.leaseExpiresAt ?? 0) - (b.leaseExpiresAt ?? 0));
      if (perOwner === undefined) return found.slice(0, limit);
      const taken = new Map<string, number>();
      return found
        .filter((record) => {
          const count = taken.get(record.ownerId) ?? 0;
          taken.set(record.ownerId, count + 1);
          return count < perOwner;
        })
        .slice(0, limit);
    });
  }

  renewLeases(holder: string, ttlMs: number): Promise<RecordKey[]> {
    // Not a new version: a renewal changes no content, so a write guarded by the version read before it still holds.
    return this.#eachHeld(holder, (row, now) => this.#table.apply(row, { lease: { holder, expiresAt: now + ttlMs } }, false));
  }

  async releaseLeases(holder: string): Promise<number> {
    return (await this.#eachHeld(holder, (row, now) => this.#table.apply(row, { lease: { holder, expiresAt: now } }))).length;
  }

  #eachHeld(holder: string, act: (row: Parameters<MemoryTable['apply']>[0], now: number) => void): Promise<RecordKey[]> {
    return settle(() => {
      const now = this.#table.clock.now();
      const keys: RecordKey[] = [];
      for (const collection of this.#table.collections()) {
        for (const row of this.#table.collectionRows(collection)) {
          if (!this.#table.isLive(row.record) || !this.#table.holds(row.record, holder)) continue;
          act(row, now);
          keys.push({ collection: row.record.collection, ownerId: row.record.ownerId, id: row.record.id });
        }
      }
      return keys;
    });
  }
}

function assertTtl(ttlMs: number): void {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be a positive finite number, got ${ttlMs}`);
}

/** Synchronous work behind the async contract: a throw becomes a rejection, as from a remote store. */
export function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
