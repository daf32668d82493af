// RecordStore on PostgreSQL: one statement (one round trip) per operation. The owner id is in every
// lookup's WHERE clause, so another owner's record is the same miss as one that never existed;
// "live" is judged against the injected clock's now, passed as a parameter. Leases are taken with a
// conditional UPDATE: racing claimants queue on the row lock and re-check the condition, so exactly
// one wins a lapsed lease.
import type { Clock } from '../../../clock/index.js';
import { decodeCursor, encodeCursor } from '../../list-cursor.js';
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
} from '../../records.js';
import type { RunItem } from '../../run-journal.js';
import { applyChange, applyChangeStatement, outboxParam } from './apply-change.js';
import type { PgDatabase } from '../connection/pg-database.js';
import { RECORD_COLUMNS, jsonParam, toStoredRecord, type RecordRow } from './record-row.js';
import type { SchemaNames } from '../schema-names.js';

const LIVE = '(expires_at IS NULL OR expires_at > $4)';
const KEY = 'collection = $1 AND owner_id = $2 AND id = $3';

export class PgRecordStore implements RecordStore {
  readonly #db: PgDatabase;
  readonly #clock: Clock;
  readonly #sql: ReturnType<typeof statements>;

  constructor(db: PgDatabase, names: SchemaNames, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#sql = statements(names);
  }

  async get<T>(key: RecordKey): Promise<StoredRecord<T> | undefined> {
    const rows = await this.#db.query<RecordRow>(this.#sql.get, [key.collection, key.ownerId, key.id, this.#clock.now()], 'portcullis_get');
    return rows[0] === undefined ? undefined : toStoredRecord<T>(rows[0]);
  }

  async touch<T>(key: RecordKey, ttlMs: number, slackMs = 0): Promise<StoredRecord<T> | undefined> {
    assertTtl(ttlMs);
    const now = this.#clock.now();
    const rows =
      slackMs > 0
        ? await this.#db.query<RecordRow>(this.#sql.touchUnlessFresh, [key.collection, key.ownerId, key.id, now, now + ttlMs, now + ttlMs - slackMs], 'portcullis_touch_unless_fresh')
        : await this.#db.query<RecordRow>(this.#sql.touch, [key.collection, key.ownerId, key.id, now, now + ttlMs], 'portcullis_touch');
    return rows[0] === undefined ? undefined : toStoredRecord<T>(rows[0]);
  }

  async insert<T>(record: NewRecord<T>, rules?: InsertRules, outbox?: readonly OutboxEntry[], items?: readonly RunItem[]): Promise<InsertResult<T>> {
    const written = outbox !== undefined && outbox.length > 0 ? outbox : undefined;
    // Later items of one key win, as successive writes would.
    const first = items === undefined || items.length === 0 ? undefined : new Map(items.map((item) => [item.key, item.data]));
    const rows = await this.#db.query<{ result: { outcome: InsertResult<T>['outcome']; record?: RecordRow } }>(
      first !== undefined ? this.#sql.insertWithItems : written === undefined ? this.#sql.insert : this.#sql.insertWithOutbox,
      [
        ...newRecordParams(record, this.#clock.now()),
        record.lease?.holder ?? null,
        record.lease?.expiresAt ?? null,
        jsonParam(record.data),
        rules?.ownerCap?.max ?? null,
        rules?.ownerCap === undefined ? null : [...rules.ownerCap.states],
        rules?.exclusiveScope === undefined ? null : [...rules.exclusiveScope.states],
        ...(first !== undefined
          ? [written === undefined ? null : outboxParam(written), [...first.keys()], `[${[...first.values()].map(jsonParam).join(',')}]`]
          : written === undefined
            ? []
            : [outboxParam(written)]),
      ],
      first !== undefined ? 'portcullis_insert_items' : written === undefined ? 'portcullis_insert' : 'portcullis_insert_outbox',
    );
    const result = rows[0]?.result;
    if (result === undefined) throw new Error('insert_record returned nothing');
    if (result.outcome === 'inserted' || result.outcome === 'exists') {
      if (result.record === undefined) throw new Error(`insert_record answered ${result.outcome} without the record`);
      return { outcome: result.outcome, record: toStoredRecord<T>(result.record) };
    }
    return { outcome: result.outcome };
  }

  async put<T>(record: NewRecord<T>): Promise<StoredRecord<T>> {
    const rows = await this.#db.query<RecordRow>(this.#sql.put, [
      ...newRecordParams(record, this.#clock.now()),
      record.lease !== undefined,
      record.lease?.holder ?? null,
      record.lease?.expiresAt ?? null,
      jsonParam(record.data),
    ]);
    if (rows[0] === undefined) throw new Error('put_record returned nothing');
    return toStoredRecord<T>(rows[0]);
  }

  async update<T>(key: RecordKey, patch: RecordPatch<T>, guard?: UpdateGuard, outbox?: readonly OutboxEntry[]): Promise<StoredRecord<T> | undefined> {
    const row = await applyChange(this.#db, this.#sql.applyChange, key, this.#clock.now(), {
      patch,
      ...(guard !== undefined ? { guard } : {}),
      ...(outbox !== undefined ? { outbox } : {}),
    });
    return row === undefined ? undefined : toStoredRecord<T>(row);
  }

  async delete(key: RecordKey): Promise<boolean> {
    const rows = await this.#db.query<{ live: boolean }>(this.#sql.delete, [key.collection, key.ownerId, key.id, this.#clock.now()]);
    return rows[0]?.live === true;
  }

  async list<T>(collection: string, ownerId: string, query: ListQuery): Promise<ListPage<T>> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await this.#db.query<RecordRow>(this.#sql.list, [
      collection,
      ownerId,
      this.#clock.now(),
      query.scope ?? null,
      query.states === undefined ? null : [...query.states],
      after?.createdAt ?? null,
      after?.id ?? null,
      query.limit,
    ]);
    const records = rows.map((row) => toStoredRecord<T>(row));
    const last = records.at(-1);
    return { records, nextCursor: records.length === query.limit && last !== undefined ? encodeCursor(last) : null };
  }

  async count(collection: string, ownerId: string, states?: readonly string[]): Promise<number> {
    const rows = await this.#db.query<{ n: number }>(this.#sql.count, [collection, ownerId, this.#clock.now(), states === undefined ? null : [...states]]);
    return rows[0]?.n ?? 0;
  }

  async sweep<T>(collection: string, limit = Number.POSITIVE_INFINITY): Promise<StoredRecord<T>[]> {
    const rows = await this.#db.query<RecordRow>(this.#sql.sweep, [collection, this.#clock.now(), Number.isFinite(limit) ? limit : null]);
    return rows.map((row) => toStoredRecord<T>(row));
  }

  async claim<T>(key: RecordKey, holder: string, ttlMs: number, query: ClaimQuery): Promise<StoredRecord<T> | undefined> {
    assertTtl(ttlMs);
    const now = this.#clock.now();
    const rows = await this.#db.query<RecordRow>(
      this.#sql.claim,
      [key.collection, key.ownerId, key.id, now, holder, now + ttlMs, [...query.states], query.lapsedOnly === true],
      'portcullis_claim',
    );
    return rows[0] === undefined ? undefined : toStoredRecord<T>(rows[0]);
  }

  async lapsed<T>(collections: readonly string[], states: readonly string[], limit: number, perOwner?: number): Promise<StoredRecord<T>[]> {
    const bound = Number.isFinite(limit) ? limit : null;
    const rows =
      perOwner === undefined
        ? await this.#db.query<RecordRow>(this.#sql.lapsed, [[...collections], [...states], this.#clock.now(), bound])
        : await this.#db.query<RecordRow>(this.#sql.lapsedPerOwner, [[...collections], [...states], this.#clock.now(), bound, perOwner]);
    return rows.map((row) => toStoredRecord<T>(row));
  }

  async renewLeases(holder: string, ttlMs: number): Promise<RecordKey[]> {
    assertTtl(ttlMs);
    const now = this.#clock.now();
    const rows = await this.#db.query<{ collection: string; owner_id: string; id: string }>(this.#sql.renew, [holder, now, now + ttlMs]);
    return rows.map((row) => ({ collection: row.collection, ownerId: row.owner_id, id: row.id }));
  }

  async releaseLeases(holder: string): Promise<number> {
    const rows = await this.#db.query<{ id: string }>(this.#sql.release, [holder, this.#clock.now()]);
    return rows.length;
  }
}

function newRecordParams(record: NewRecord<unknown>, now: number): unknown[] {
  return [record.collection, record.ownerId, record.id, now, record.scope ?? null, record.state ?? null, record.createdAt, record.expiresAt ?? null];
}

function assertTtl(ttlMs: number): void {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be a positive finite number, got ${ttlMs}`);
}

function statements(names: SchemaNames) {
  const s = names.id;
  // A lease nobody claimed since is still held, lapsed or not: the holder is the fencing token.
  const holds = 'lease_holder = $1 AND (expires_at IS NULL OR expires_at > $2)';
  return {
    get: `SELECT ${RECORD_COLUMNS} FROM ${s}.records WHERE ${KEY} AND ${LIVE}`,
    touch: `UPDATE ${s}.records SET expires_at = $5, version = version + 1 WHERE ${KEY} AND ${LIVE} RETURNING ${RECORD_COLUMNS}`,
    // Writes only an expiry older than $6; otherwise reads the record as it is (the other branch).
    touchUnlessFresh: `WITH slid AS (
        UPDATE ${s}.records SET expires_at = $5, version = version + 1
        WHERE ${KEY} AND ${LIVE} AND (expires_at IS NULL OR expires_at < $6) RETURNING ${RECORD_COLUMNS})
      SELECT ${RECORD_COLUMNS} FROM slid
      UNION ALL
      SELECT ${RECORD_COLUMNS} FROM ${s}.records WHERE ${KEY} AND ${LIVE} AND NOT EXISTS (SELECT 1 FROM slid)`,
    insert: `SELECT ${s}.insert_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) AS result`,
    insertWithOutbox: `SELECT ${s}.insert_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) AS result`,
    insertWithItems: `SELECT ${s}.insert_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) AS result`,
    put: `SELECT ${RECORD_COLUMNS} FROM ${s}.put_record($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    applyChange: applyChangeStatement(names),
    delete: `DELETE FROM ${s}.records WHERE ${KEY} RETURNING ${LIVE} AS live`,
    list: `SELECT ${RECORD_COLUMNS} FROM ${s}.records
      WHERE collection = $1 AND owner_id = $2 AND (expires_at IS NULL OR expires_at > $3)
        AND ($4::text IS NULL OR scope = $4) AND ($5::text[] IS NULL OR state = ANY ($5))
        AND ($6::bigint IS NULL OR (created_at, id) < ($6, $7::text))
      ORDER BY created_at DESC, id DESC LIMIT $8`,
    count: `SELECT count(*)::integer AS n FROM ${s}.records
      WHERE collection = $1 AND owner_id = $2 AND (expires_at IS NULL OR expires_at > $3) AND ($4::text[] IS NULL OR state = ANY ($4))`,
    // Several instances may sweep at once: each takes rows the others have not locked.
    sweep: `DELETE FROM ${s}.records WHERE (collection, owner_id, id) IN (
        SELECT collection, owner_id, id FROM ${s}.records WHERE collection = $1 AND expires_at <= $2
        ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING ${RECORD_COLUMNS}`,
    claim: `UPDATE ${s}.records SET lease_holder = $5, lease_expires_at = $6, version = version + 1
      WHERE ${KEY} AND ${LIVE} AND state = ANY ($7)
        AND CASE WHEN $8 THEN lease_holder IS NOT NULL AND lease_expires_at <= $4
                 ELSE lease_holder IS NULL OR lease_expires_at <= $4 OR lease_holder = $5 END
      RETURNING ${RECORD_COLUMNS}`,
    lapsed: `SELECT ${RECORD_COLUMNS} FROM ${s}.records
      WHERE collection = ANY ($1) AND state = ANY ($2) AND lease_holder IS NOT NULL AND lease_expires_at <= $3
        AND (expires_at IS NULL OR expires_at > $3)
      ORDER BY lease_expires_at LIMIT $4`,
    lapsedPerOwner: `SELECT ${RECORD_COLUMNS} FROM (
        SELECT ${RECORD_COLUMNS}, row_number() OVER (PARTITION BY owner_id ORDER BY lease_expires_at) AS owner_rank FROM ${s}.records
        WHERE collection = ANY ($1) AND state = ANY ($2) AND lease_holder IS NOT NULL AND lease_expires_at <= $3
          AND (expires_at IS NULL OR expires_at > $3)) due
      WHERE owner_rank <= $5 ORDER BY lease_expires_at LIMIT $4`,
    // Not a new version: a renewal changes no content, so a write guarded by the version read before it still holds.
    renew: `UPDATE ${s}.records SET lease_expires_at = $3 WHERE ${holds} RETURNING collection, owner_id, id`,
    // Released leases lapse now (the holder is kept), so a scan on any instance claims them at once.
    release: `UPDATE ${s}.records SET lease_expires_at = $2, version = version + 1 WHERE ${holds} RETURNING id`,
  };
}
