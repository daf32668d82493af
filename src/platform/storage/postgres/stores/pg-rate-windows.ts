// RateWindows on PostgreSQL, without a database write per request (decision 2801). The window of a
// (policy, key) lives in one row of an UNLOGGED table and counts the permits lent out of it; an
// instance borrows permits in blocks and admits from its block locally. One upsert lends a block:
// about one second of this instance's recent takes of that key, never more than an eighth of what
// the window has left (at least one), so near the limit blocks shrink to single permits. No permit
// is ever lent twice, so every instance together admits at most the window's permits: the limit is
// never exceeded. What it gives up: a block lent to one instance and left unused cannot admit a take
// on another — a caller whose traffic moves between instances may be refused early by at most the
// blocks others hold, and a block unused for a second is given back (one statement per instance for
// every key due). A refusal is remembered for a second, so a flood of refused takes costs nothing.
import type { Clock } from '../../../clock/index.js';
import { RATE_WINDOW_MS, type RateDecision, type RateWindows } from '../../rate-windows.js';
import type { PgDatabase, PostgresLog } from '../connection/pg-database.js';
import type { SchemaNames } from '../schema-names.js';
import { PeriodicPrune } from './periodic-prune.js';

/** A block unused this long goes back to the window. */
export const RETURN_AFTER_MS = 1_000;
/** A refused take is answered locally this long before the window is asked again. */
const REFUSAL_MS = 1_000;
/** A block is at most this fraction (1/n) of what the window has left. */
const BLOCK_DIVISOR = 8;
/** How long a closing instance waits to give its blocks back. */
const CLOSE_WAIT_MS = 1_000;
/** Keys with a local block at most; past it a take borrows one permit per statement, as before. */
const MAX_KEYS = 50_000;

interface Borrowed {
  readonly policy: string;
  readonly key: string;
  /** The window the block came from (the row's started_at). */
  startedAt: number;
  /** Permits of the block not yet used. */
  left: number;
  /** Permits the window had left after the block was lent. */
  windowLeft: number;
  /** Takes in the current and the previous second (the next block's size). */
  second: number;
  takesThisSecond: number;
  takesLastSecond: number;
  lastTakeAt: number;
  refusedUntil: number;
  borrowing: Promise<void> | null;
}

export class PgRateWindows implements RateWindows {
  readonly #db: PgDatabase;
  readonly #clock: Clock;
  readonly #log: PostgresLog;
  readonly #lend: string;
  readonly #giveBack: string;
  readonly #prune: PeriodicPrune;
  readonly #borrowed = new Map<string, Borrowed>();
  readonly #timer: NodeJS.Timeout;
  #returning: Promise<void> = Promise.resolve();

  constructor(db: PgDatabase, names: SchemaNames, clock: Clock, log: PostgresLog) {
    this.#db = db;
    this.#clock = clock;
    this.#log = log;
    const s = names.id;
    // $4 permits per window, $5 the block asked for. Every SET expression reads the row as it was,
    // so `granted` and `count` agree; a window whose minute ended starts again at $3.
    const ended = `w.started_at + ${RATE_WINDOW_MS} <= $3`;
    const fresh = `least($5::integer, greatest(1, $4::integer / ${BLOCK_DIVISOR}))`;
    const more = `least($5::integer, greatest(1, ($4::integer - w.count) / ${BLOCK_DIVISOR}))`;
    this.#lend = `INSERT INTO ${s}.rate_windows AS w (policy, key, started_at, count, granted) VALUES ($1, $2, $3, ${fresh}, ${fresh})
      ON CONFLICT (policy, key) DO UPDATE SET
        started_at = CASE WHEN ${ended} THEN $3 ELSE w.started_at END,
        granted = CASE WHEN ${ended} THEN ${fresh} WHEN w.count >= $4 THEN 0 ELSE ${more} END,
        count = CASE WHEN ${ended} THEN ${fresh} WHEN w.count >= $4 THEN w.count ELSE w.count + ${more} END
      RETURNING started_at, count, granted`;
    this.#giveBack = `UPDATE ${s}.rate_windows AS w SET count = greatest(0, w.count - r.n)
      FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[]) AS r(policy, key, started_at, n)
      WHERE w.policy = r.policy AND w.key = r.key AND w.started_at = r.started_at`;
    this.#prune = new PeriodicPrune(db, log, { statement: `DELETE FROM ${s}.rate_windows WHERE started_at <= $1`, intervalMs: RATE_WINDOW_MS, failure: 'storage: pruning ended rate windows failed' });
    this.#timer = setInterval(() => void this.#returnIdle(false), RETURN_AFTER_MS);
    this.#timer.unref();
  }

  async take(policy: string, key: string, permitsPerMinute: number): Promise<RateDecision> {
    const id = `${policy}\u0000${key}`;
    let borrowed = this.#borrowed.get(id);
    if (borrowed === undefined) {
      if (this.#borrowed.size >= MAX_KEYS) return this.#takeOne(policy, key, permitsPerMinute);
      borrowed = { policy, key, startedAt: 0, left: 0, windowLeft: 0, second: 0, takesThisSecond: 0, takesLastSecond: 0, lastTakeAt: 0, refusedUntil: 0, borrowing: null };
      this.#borrowed.set(id, borrowed);
    }
    for (;;) {
      const now = this.#clock.now();
      if (now >= borrowed.startedAt + RATE_WINDOW_MS) {
        // The block's window ended: what is left of it counts for nothing now.
        borrowed.left = 0;
        borrowed.refusedUntil = 0;
      }
      if (borrowed.left > 0) {
        borrowed.left -= 1;
        this.#count(borrowed, now);
        return { allowed: true, remaining: borrowed.windowLeft + borrowed.left };
      }
      if (now < borrowed.refusedUntil) return refusal(borrowed.startedAt, now);
      if (borrowed.borrowing === null) {
        this.#count(borrowed, now);
        borrowed.borrowing = this.#borrow(borrowed, permitsPerMinute, now).finally(() => {
          borrowed.borrowing = null;
        });
      }
      await borrowed.borrowing;
    }
  }

  /**
   * Gives every unused block back (a stopping instance); resolves when the statement did, or after
   * CLOSE_WAIT_MS at most — a database that does not answer must not hold up a shutdown (the blocks
   * then lapse with their windows).
   */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const giveBack = this.#returning.then(() => this.#returnIdle(true));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([giveBack, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Counts a take in this second's tally (the next block's size). */
  #count(borrowed: Borrowed, now: number): void {
    const second = Math.floor(now / 1_000);
    if (second !== borrowed.second) {
      borrowed.takesLastSecond = second === borrowed.second + 1 ? borrowed.takesThisSecond : 0;
      borrowed.takesThisSecond = 0;
      borrowed.second = second;
    }
    borrowed.takesThisSecond += 1;
    borrowed.lastTakeAt = now;
  }

  async #borrow(borrowed: Borrowed, permits: number, now: number): Promise<void> {
    this.#prune.maybe(now, now - RATE_WINDOW_MS);
    // About a second's worth of this key's takes here; the statement caps it by what the window has left.
    const wanted = Math.max(1, borrowed.takesThisSecond + borrowed.takesLastSecond);
    const window = await this.#lendBlock(borrowed.policy, borrowed.key, now, permits, wanted);
    borrowed.startedAt = window.startedAt;
    borrowed.windowLeft = Math.max(0, permits - window.count);
    borrowed.left = window.granted;
    // Refused: remembered for a second (or until the window ends), then the window is asked again,
    // since blocks other instances give back may have made room.
    borrowed.refusedUntil = window.granted === 0 ? Math.min(now + REFUSAL_MS, borrowed.startedAt + RATE_WINDOW_MS) : 0;
  }

  /** Past MAX_KEYS: one permit per statement, nothing kept. */
  async #takeOne(policy: string, key: string, permits: number): Promise<RateDecision> {
    const now = this.#clock.now();
    this.#prune.maybe(now, now - RATE_WINDOW_MS);
    const window = await this.#lendBlock(policy, key, now, permits, 1);
    return window.granted > 0 ? { allowed: true, remaining: Math.max(0, permits - window.count) } : refusal(window.startedAt, now);
  }

  /** One upsert: lends at most `wanted` permits of the window; answers its start, its count and the block lent. */
  async #lendBlock(policy: string, key: string, now: number, permits: number, wanted: number): Promise<{ startedAt: number; count: number; granted: number }> {
    const rows = await this.#db.query<{ started_at: number; count: number; granted: number }>(this.#lend, [policy, key, now, permits, wanted], 'portcullis_rate_lend');
    const window = rows[0];
    if (window === undefined) throw new Error('the rate window upsert returned nothing');
    return { startedAt: Number(window.started_at), count: window.count, granted: window.granted };
  }

  /** Gives back blocks unused for RETURN_AFTER_MS (every block with `all`) and forgets ended windows; never rejects. */
  #returnIdle(all: boolean): Promise<void> {
    const now = this.#clock.now();
    const policies: string[] = [];
    const keys: string[] = [];
    const windows: number[] = [];
    const counts: number[] = [];
    for (const [id, borrowed] of this.#borrowed) {
      const live = now < borrowed.startedAt + RATE_WINDOW_MS;
      if (borrowed.borrowing !== null) continue;
      if (live && borrowed.left > 0 && (all || now - borrowed.lastTakeAt >= RETURN_AFTER_MS)) {
        policies.push(borrowed.policy);
        keys.push(borrowed.key);
        windows.push(borrowed.startedAt);
        counts.push(borrowed.left);
        borrowed.windowLeft += borrowed.left;
        borrowed.left = 0;
      }
      if (!live && now - borrowed.lastTakeAt >= RETURN_AFTER_MS) this.#borrowed.delete(id);
    }
    if (policies.length === 0) return Promise.resolve();
    this.#returning = this.#db.query(this.#giveBack, [policies, keys, windows, counts], 'portcullis_rate_give_back').then(
      () => undefined,
      (error: unknown) => this.#log.warn({ cause: this.#db.describe(error) }, 'storage: giving unused rate permits back failed (they lapse with their window)'),
    );
    return this.#returning;
  }
}

function refusal(startedAt: number, now: number): RateDecision {
  const untilReset = startedAt + RATE_WINDOW_MS - now;
  return { allowed: false, retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(untilReset / 1_000))) };
}
