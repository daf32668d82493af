// SpendCounters on PostgreSQL (schema version 3): one row per (owner, period). An addition is one
// upsert of every counter at once; racing additions queue on the rows' locks, so totals are exact
// across instances. A row past its expiry restarts at the addition; expired rows are pruned in the
// background at most once a minute of the service's clock.
import type { Clock } from '../../../clock/index.js';
import type { SpendCounter, SpendCounters } from '../../spend-counters.js';
import type { PgDatabase, PostgresLog } from '../connection/pg-database.js';
import type { SchemaNames } from '../schema-names.js';
import { PeriodicPrune } from './periodic-prune.js';

const PRUNE_MS = 60_000;

export class PgSpendCounters implements SpendCounters {
  readonly #db: PgDatabase;
  readonly #clock: Clock;
  readonly #read: string;
  readonly #add: string;
  readonly #prune: PeriodicPrune;

  constructor(db: PgDatabase, names: SchemaNames, clock: Clock, log: PostgresLog) {
    this.#db = db;
    this.#clock = clock;
    const s = names.id;
    this.#read = `SELECT period, spent_nano FROM ${s}.spend WHERE owner_id = $1 AND period = ANY($2::text[]) AND expires_at > $3`;
    this.#add = `INSERT INTO ${s}.spend AS t (owner_id, period, spent_nano, expires_at)
      SELECT $1, c.period, $3::bigint, c.expires_at FROM unnest($2::text[], $4::bigint[]) AS c(period, expires_at)
      ON CONFLICT (owner_id, period) DO UPDATE SET
        spent_nano = CASE WHEN t.expires_at <= $5 THEN excluded.spent_nano ELSE t.spent_nano + excluded.spent_nano END,
        expires_at = CASE WHEN t.expires_at <= $5 THEN excluded.expires_at ELSE greatest(t.expires_at, excluded.expires_at) END
      RETURNING period, spent_nano`;
    this.#prune = new PeriodicPrune(db, log, { statement: `DELETE FROM ${s}.spend WHERE expires_at <= $1`, intervalMs: PRUNE_MS, failure: 'storage: pruning expired spend totals failed' });
  }

  async read(ownerId: string, periods: readonly string[]): Promise<readonly number[]> {
    const rows = await this.#db.query<{ period: string; spent_nano: string }>(this.#read, [ownerId, periods, this.#clock.now()], 'portcullis_spend_read');
    return inOrder(periods, rows);
  }

  async add(ownerId: string, counters: readonly SpendCounter[], nanoUsd: number): Promise<readonly number[]> {
    const now = this.#clock.now();
    this.#prune.maybe(now, now);
    const periods = counters.map((counter) => counter.period);
    const rows = await this.#db.query<{ period: string; spent_nano: string }>(
      this.#add,
      [ownerId, periods, nanoUsd, counters.map((counter) => counter.expiresAt), now],
      'portcullis_spend_add',
    );
    return inOrder(periods, rows);
  }

}

/** bigint arrives as text: totals stay far below 2^53 nano-dollars (9 million dollars). */
function inOrder(periods: readonly string[], rows: readonly { period: string; spent_nano: string }[]): number[] {
  const byPeriod = new Map(rows.map((row) => [row.period, Number(row.spent_nano)]));
  return periods.map((period) => byPeriod.get(period) ?? 0);
}
