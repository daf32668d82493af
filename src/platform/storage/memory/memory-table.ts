// The memory provider's one table: records by collection, owner and id, each with its run items and
// events beside it (deleting a record drops them, as a cascade would). Expiry is judged on the injected
// clock and applied lazily: an expired record is invisible to every read and gone at the next sweep.
import type { Clock } from '../../clock/index.js';
import { deepFreezeJson } from '../deep-freeze-json.js';
import type { JournalEvent } from '../run-journal.js';
import type { NewRecord, RecordKey, RecordPatch, StoredRecord, UpdateGuard } from '../records.js';

export interface Row {
  record: StoredRecord;
  readonly items: Map<string, unknown>;
  readonly events: JournalEvent[];
}

export class MemoryTable {
  readonly clock: Clock;
  /** collection → owner → id → row. */
  readonly #rows = new Map<string, Map<string, Map<string, Row>>>();

  constructor(clock: Clock) {
    this.clock = clock;
  }

  isLive(record: StoredRecord): boolean {
    return record.expiresAt === null || record.expiresAt > this.clock.now();
  }

  /** The row, live or not (sweep and insert need expired ones too). */
  row(key: RecordKey): Row | undefined {
    return this.#rows.get(key.collection)?.get(key.ownerId)?.get(key.id);
  }

  liveRow(key: RecordKey): Row | undefined {
    const row = this.row(key);
    return row !== undefined && this.isLive(row.record) ? row : undefined;
  }

  /** Live rows of one owner in one collection. */
  ownerRows(collection: string, ownerId: string): Row[] {
    const rows = this.#rows.get(collection)?.get(ownerId);
    return rows === undefined ? [] : [...rows.values()].filter((row) => this.isLive(row.record));
  }

  collections(): string[] {
    return [...this.#rows.keys()];
  }

  /** Every row of the collection, live or not. */
  *collectionRows(collection: string): Generator<Row> {
    for (const owner of this.#rows.get(collection)?.values() ?? []) yield* owner.values();
  }

  create(input: NewRecord): Row {
    const record: StoredRecord = {
      collection: input.collection,
      ownerId: input.ownerId,
      id: input.id,
      scope: input.scope ?? null,
      state: input.state ?? null,
      createdAt: input.createdAt,
      expiresAt: input.expiresAt ?? null,
      version: 1,
      leaseHolder: input.lease?.holder ?? null,
      leaseExpiresAt: input.lease?.expiresAt ?? null,
      data: deepFreezeJson(input.data),
    };
    const row: Row = { record: Object.freeze(record), items: new Map(), events: [] };
    let owners = this.#rows.get(input.collection);
    if (owners === undefined) this.#rows.set(input.collection, (owners = new Map<string, Map<string, Row>>()));
    let ids = owners.get(input.ownerId);
    if (ids === undefined) owners.set(input.ownerId, (ids = new Map<string, Row>()));
    ids.set(input.id, row);
    return row;
  }

  /** Inserts each entry whose key no live record has (an expired one is replaced): an outbox written with a change. */
  writeOutbox(entries: readonly NewRecord[] | undefined): void {
    for (const entry of entries ?? []) {
      if (this.liveRow(entry) !== undefined) continue;
      this.remove(entry);
      this.create(entry);
    }
  }

  remove(key: RecordKey): void {
    const owners = this.#rows.get(key.collection);
    const ids = owners?.get(key.ownerId);
    if (ids === undefined || owners === undefined) return;
    ids.delete(key.id);
    if (ids.size === 0) owners.delete(key.ownerId);
  }

  /** Whether the live record meets the guard. */
  passes(record: StoredRecord, guard: UpdateGuard | undefined): boolean {
    if (guard === undefined) return true;
    if (guard.version !== undefined && record.version !== guard.version) return false;
    if (guard.states !== undefined && (record.state === null || !guard.states.includes(record.state))) return false;
    if (guard.leaseHolder !== undefined && record.leaseHolder !== guard.leaseHolder) return false;
    return true;
  }

  /** The holder still has the record's lease: lapsed or not, nobody claimed it since. */
  holds(record: StoredRecord, holder: string): boolean {
    return record.leaseHolder === holder;
  }

  /** Applies a patch; every change but a lease renewal (`bump` false) is a new version. */
  apply(row: Row, patch: RecordPatch<unknown>, bump = true): StoredRecord {
    const current = row.record;
    const lease = patch.lease;
    // A literal, not conditional spreads: a workflow step's checkpoint applies one patch per commit.
    const next: StoredRecord = {
      collection: current.collection,
      ownerId: current.ownerId,
      id: current.id,
      scope: patch.scope !== undefined ? patch.scope : current.scope,
      state: patch.state !== undefined ? patch.state : current.state,
      createdAt: current.createdAt,
      expiresAt: patch.expiresAt !== undefined ? patch.expiresAt : current.expiresAt,
      version: bump ? current.version + 1 : current.version,
      leaseHolder: lease !== undefined ? (lease?.holder ?? null) : current.leaseHolder,
      leaseExpiresAt: lease !== undefined ? (lease?.expiresAt ?? null) : current.leaseExpiresAt,
      data: patch.data !== undefined ? deepFreezeJson(patch.data) : current.data,
    };
    row.record = Object.freeze(next);
    return row.record;
  }
}
