// A background DELETE of what has lapsed, run at most once an interval of the service's clock and
// never awaited: a failure is a warning, and the next interval tries again. Rate windows and spend
// totals prune themselves this way on their own writes.
import type { PgDatabase, PostgresLog } from '../connection/pg-database.js';

export class PeriodicPrune {
  readonly #db: PgDatabase;
  readonly #log: PostgresLog;
  readonly #statement: string;
  readonly #intervalMs: number;
  readonly #failure: string;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(db: PgDatabase, log: PostgresLog, options: { readonly statement: string; readonly intervalMs: number; readonly failure: string }) {
    this.#db = db;
    this.#log = log;
    this.#statement = options.statement;
    this.#intervalMs = options.intervalMs;
    this.#failure = options.failure;
  }

  /** Prunes with `cutoff` as the statement's one parameter, unless it did so less than an interval ago. */
  maybe(now: number, cutoff: number): void {
    if (now - this.#prunedAt < this.#intervalMs) return;
    this.#prunedAt = now;
    this.#db.query(this.#statement, [cutoff]).catch((error: unknown) => {
      this.#log.warn({ cause: this.#db.describe(error) }, this.#failure);
    });
  }
}
