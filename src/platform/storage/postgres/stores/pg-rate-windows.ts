// RateWindows on PostgreSQL: one upsert per take. Racing takes of one (policy, key) queue on the
// row's lock, so a window admits exactly permitsPerMinute across every instance. Refused takes count
// too (capped at permits + 1), which is how the statement tells an admitted take from a refused one.
// Windows are in an UNLOGGED table (a crash forgets them: a caller's window restarts, nothing else);
// ended windows are pruned in the background at most once a minute of the service's clock.
import type { Clock } from '../../../clock/index.js';
import { RATE_WINDOW_MS, type RateDecision, type RateWindows } from '../../rate-windows.js';
import type { PgDatabase, PostgresLog } from '../connection/pg-database.js';
import type { SchemaNames } from '../schema-names.js';
import { PeriodicPrune } from './periodic-prune.js';

export class PgRateWindows implements RateWindows {
  readonly #db: PgDatabase;
  readonly #clock: Clock;
  readonly #take: string;
  readonly #prune: PeriodicPrune;

  constructor(db: PgDatabase, names: SchemaNames, clock: Clock, log: PostgresLog) {
    this.#db = db;
    this.#clock = clock;
    const s = names.id;
    this.#take = `INSERT INTO ${s}.rate_windows AS w (policy, key, started_at, count) VALUES ($1, $2, $3, 1)
      ON CONFLICT (policy, key) DO UPDATE SET
        started_at = CASE WHEN w.started_at + ${RATE_WINDOW_MS} <= $3 THEN $3 ELSE w.started_at END,
        count = CASE WHEN w.started_at + ${RATE_WINDOW_MS} <= $3 THEN 1 ELSE least(w.count + 1, $4::integer + 1) END
      RETURNING started_at, count`;
    this.#prune = new PeriodicPrune(db, log, { statement: `DELETE FROM ${s}.rate_windows WHERE started_at <= $1`, intervalMs: RATE_WINDOW_MS, failure: 'storage: pruning ended rate windows failed' });
  }

  async take(policy: string, key: string, permitsPerMinute: number): Promise<RateDecision> {
    const now = this.#clock.now();
    this.#prune.maybe(now, now - RATE_WINDOW_MS);
    const rows = await this.#db.query<{ started_at: number; count: number }>(this.#take, [policy, key, now, permitsPerMinute], 'portcullis_rate_take');
    const window = rows[0];
    if (window === undefined) throw new Error('the rate window upsert returned nothing');
    if (window.count <= permitsPerMinute) return { allowed: true, remaining: permitsPerMinute - window.count };
    const untilReset = window.started_at + RATE_WINDOW_MS - now;
    return { allowed: false, retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(untilReset / 1_000))) };
  }

}
