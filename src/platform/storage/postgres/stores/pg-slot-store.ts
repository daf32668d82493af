// SlotStore on PostgreSQL: acquire_slot (migration 1) counts and takes a slot of (kind, key) under an
// advisory transaction lock, so racing acquisitions on any instance admit exactly `limit`. Slots are
// rows with a holder and a lapse time on the service's clock, in an UNLOGGED table: after a database
// crash they are gone, as they would have lapsed.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock/index.js';
import type { SlotStore } from '../../slot-store.js';
import type { PgDatabase } from '../connection/pg-database.js';
import type { SchemaNames } from '../schema-names.js';

export class PgSlotStore implements SlotStore {
  readonly #db: PgDatabase;
  readonly #clock: Clock;
  readonly #sql: ReturnType<typeof statements>;

  constructor(db: PgDatabase, names: SchemaNames, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#sql = statements(names);
  }

  async acquire(kind: string, key: string, limit: number, holder: string, ttlMs: number): Promise<string | null> {
    const id = randomBytes(12).toString('base64url');
    const now = this.#clock.now();
    const rows = await this.#db.query<{ ok: boolean }>(this.#sql.acquire, [kind, key, limit, holder, now, now + ttlMs, id], 'portcullis_slot_acquire');
    return rows[0]?.ok === true ? id : null;
  }

  async release(slotId: string): Promise<void> {
    await this.#db.query(this.#sql.release, [slotId], 'portcullis_slot_release');
  }

  async renew(holder: string, ttlMs: number): Promise<number> {
    const now = this.#clock.now();
    return (await this.#db.query(this.#sql.renew, [holder, now, now + ttlMs])).length;
  }

  async releaseAll(holder: string): Promise<void> {
    await this.#db.query(this.#sql.releaseAll, [holder]);
  }

  async held(kind: string, key: string): Promise<number> {
    const rows = await this.#db.query<{ n: number }>(this.#sql.held, [kind, key, this.#clock.now()]);
    return rows[0]?.n ?? 0;
  }
}

function statements({ id: s }: SchemaNames) {
  return {
    acquire: `SELECT ${s}.acquire_slot($1, $2, $3, $4, $5, $6, $7) AS ok`,
    release: `DELETE FROM ${s}.slots WHERE id = $1`,
    renew: `WITH lapsed AS (DELETE FROM ${s}.slots WHERE holder = $1 AND expires_at <= $2)
      UPDATE ${s}.slots SET expires_at = $3 WHERE holder = $1 AND expires_at > $2 RETURNING id`,
    releaseAll: `DELETE FROM ${s}.slots WHERE holder = $1`,
    held: `SELECT count(*)::integer AS n FROM ${s}.slots WHERE kind = $1 AND key = $2 AND expires_at > $3`,
  };
}
