// The one clock every instance on a database judges leases and TTLs by: the database server's. The
// offset between this process's clock and the server's is measured when the storage opens (against
// the midpoint of the round trip) and again every RESYNC_MS, so an instance whose clock is minutes
// off neither takes over a live run, nor loses its own, nor expires a live resource early (DESIGN
// §17). A failed re-measurement keeps the last offset: the database being away is reported elsewhere.
import type { Clock } from '../../../clock/index.js';
import type { PgDatabase } from './pg-database.js';

const RESYNC_MS = 30_000;
const SERVER_NOW = 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now';

export class DatabaseClock implements Clock {
  readonly #base: Clock;
  readonly #db: PgDatabase;
  #offsetMs = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(base: Clock, db: PgDatabase) {
    this.#base = base;
    this.#db = db;
  }

  now(): number {
    return this.#base.now() + this.#offsetMs;
  }

  /** How far the database's clock is ahead of this process's (negative: behind), as last measured. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Measures the offset now; rejects when the database cannot be reached. */
  async sync(): Promise<void> {
    const sent = this.#base.now();
    const rows = await this.#db.query<{ now: number }>(SERVER_NOW, [], 'portcullis_clock');
    const received = this.#base.now();
    const server = rows[0]?.now;
    if (typeof server === 'number' && Number.isFinite(server)) this.#offsetMs = Math.round(server - (sent + received) / 2);
  }

  /** Re-measures every RESYNC_MS until stopped. */
  start(): void {
    this.#timer ??= setInterval(() => void this.sync().catch(() => undefined), RESYNC_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
