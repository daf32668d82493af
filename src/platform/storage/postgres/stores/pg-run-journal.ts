// RunJournal on PostgreSQL. A commit is one call of apply_change: under the run record's row lock it
// patches the record (when asked, under its guard), upserts the items, appends the events with the
// next gap-free sequence numbers and NOTIFYs the newest one, all in one transaction and one round
// trip. Watchers on this instance are told at once; those on other instances hear the NOTIFY, which
// a commit sends only while another instance watches the run (decision 2808): the first watcher of a
// run here registers the watch in journal_watchers (then hears the run's newest sequence once, for
// what was committed before the watch was in place), the last one's end removes it, and every
// WATCH_RENEW_MS the instance writes all its watches again, lapsing WATCH_TTL_MS after it stops. After
// the notification connection was lost and is back, the watches are written again and every watcher
// is told its run's newest sequence (commits made meanwhile would otherwise go unheard): listeners
// treat it as the hint it is.
import type { Clock } from '../../../clock/index.js';
import type { RecordKey } from '../../records.js';
import type { CommitOptions, CommitResult, JournalChange, JournalEvent, JournalListener, RunItem, RunJournal } from '../../run-journal.js';
import { applyChange, applyChangeStatement } from './apply-change.js';
import type { PgDatabase } from '../connection/pg-database.js';
import type { PgNotificationHub } from '../connection/pg-notification-hub.js';
import { toStoredRecord } from './record-row.js';
import type { SchemaNames } from '../schema-names.js';

interface Watch {
  readonly run: RecordKey;
  readonly topicId: string;
  readonly hear: (lastSeq: number) => void;
}

/** How long a registered watch outlives its instance's last renewal. */
export const WATCH_TTL_MS = 30_000;
/** How often an instance writes its watches again (a third of their TTL). */
export const WATCH_RENEW_MS = 10_000;

export class PgRunJournal implements RunJournal {
  readonly #db: PgDatabase;
  readonly #hub: PgNotificationHub;
  readonly #clock: Clock;
  readonly #sql: ReturnType<typeof statements>;
  /** This instance's watchers; the topics they follow are its rows in journal_watchers. */
  readonly #watches = new Set<Watch>();
  readonly #renewal: NodeJS.Timeout;

  constructor(db: PgDatabase, hub: PgNotificationHub, names: SchemaNames, clock: Clock) {
    this.#db = db;
    this.#hub = hub;
    this.#clock = clock;
    this.#sql = statements(names);
    hub.onReconnect(() => {
      void this.#register(this.#topics());
      this.#catchUp();
    });
    this.#renewal = setInterval(() => void this.#register(this.#topics()), WATCH_RENEW_MS);
    this.#renewal.unref();
  }

  /** Stops renewing this instance's watches (they lapse in WATCH_TTL_MS, or go with the database's restart). */
  close(): void {
    clearInterval(this.#renewal);
  }

  async commit<T, R>(run: RecordKey, change: JournalChange<T, R>, options?: CommitOptions): Promise<CommitResult<R>> {
    const topicId = this.#hub.topicId('j', runTopic(run));
    const row = await applyChange(this.#db, this.#sql.applyChange, run, this.#clock.now(), {
      ...(change.record !== undefined ? { patch: change.record.patch, ...(change.record.guard !== undefined ? { guard: change.record.guard } : {}) } : {}),
      ...(change.items !== undefined ? { items: change.items } : {}),
      ...(change.events !== undefined ? { events: change.events } : {}),
      ...(change.outbox !== undefined ? { outbox: change.outbox } : {}),
      ...(change.expire !== undefined ? { expire: change.expire } : {}),
      notify: this.#hub.prefix('j', topicId),
      ...(options?.waitOut === true ? { bounded: false } : {}),
    });
    if (row === undefined) return { committed: false };
    const appended = change.events?.length ?? 0;
    const seqs = Array.from({ length: appended }, (_, i) => row.last_seq - appended + 1 + i);
    if (appended > 0) this.#hub.deliverLocal('j', topicId, String(row.last_seq));
    return { committed: true, seqs, record: change.record === undefined ? undefined : toStoredRecord<R>(row) };
  }

  async items<T>(run: RecordKey): Promise<RunItem<T>[]> {
    const rows = await this.#db.query<{ key: string; data: T }>(this.#sql.items, [run.collection, run.ownerId, run.id, this.#clock.now()]);
    return rows.map((row) => ({ key: row.key, data: row.data }));
  }

  async events<E>(run: RecordKey, after: number, limit: number): Promise<JournalEvent<E>[]> {
    const rows = await this.#db.query<{ seq: number; event: E }>(
      this.#sql.events,
      // Read as the memory provider's slice() reads them: truncated, negative as 0, unbounded as no limit.
      [run.collection, run.ownerId, run.id, this.#clock.now(), sliceBound(after) ?? Number.MAX_SAFE_INTEGER, sliceBound(limit)],
      'portcullis_events',
    );
    return rows.map((row) => ({ seq: row.seq, event: row.event }));
  }

  async lastSeq(run: RecordKey): Promise<number> {
    const rows = await this.#db.query<{ last_seq: number }>(this.#sql.lastSeq, [run.collection, run.ownerId, run.id, this.#clock.now()]);
    return rows[0]?.last_seq ?? 0;
  }

  watch(run: RecordKey, listener: JournalListener): () => void {
    let heard = 0;
    // Sequence numbers only grow: a late or repeated hint is not passed on.
    const hear = (lastSeq: number): void => {
      if (!(lastSeq > heard)) return;
      heard = lastSeq;
      listener(lastSeq);
    };
    const topicId = this.#hub.topicId('j', runTopic(run));
    const first = !this.#watching(topicId);
    const watch: Watch = { run, topicId, hear };
    this.#watches.add(watch);
    const unsubscribe = this.#hub.subscribe('j', topicId, (body) => hear(Number(body)));
    if (first) {
      // Commits that landed before the watch was in place notified nobody: the newest sequence once it is.
      void this.#register([topicId]).then((registered) => {
        if (registered && this.#watches.has(watch)) this.#hint(watch);
      });
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#watches.delete(watch);
      unsubscribe();
      if (this.#watching(topicId)) return;
      this.#db.query(this.#sql.unwatch, [topicId, this.#hub.instanceId]).catch(() => undefined); // else it lapses
    };
  }

  #watching(topicId: string): boolean {
    for (const watch of this.#watches) if (watch.topicId === topicId) return true;
    return false;
  }

  #topics(): string[] {
    return [...new Set([...this.#watches].map((watch) => watch.topicId))];
  }

  /** Writes (or renews) this instance's watches of `topics`; false when the database could not be reached (renewal and reconnect retry). */
  async #register(topics: readonly string[]): Promise<boolean> {
    if (topics.length === 0) return true;
    try {
      await this.#db.query(this.#sql.watch, [topics, this.#hub.instanceId, this.#clock.now() + WATCH_TTL_MS], 'portcullis_journal_watch');
      return true;
    } catch {
      return false;
    }
  }

  #hint(watch: Watch): void {
    this.lastSeq(watch.run).then(
      (lastSeq) => {
        if (this.#watches.has(watch) && lastSeq > 0) watch.hear(lastSeq);
      },
      () => undefined, // unreachable: the watcher's own reads find out, and the next reconnect catches up
    );
  }

  #catchUp(): void {
    for (const watch of this.#watches) this.#hint(watch);
  }
}

function sliceBound(value: number): number | null {
  if (value === Number.POSITIVE_INFINITY) return null;
  return Number.isNaN(value) ? 0 : Math.max(0, Math.trunc(value));
}

function runTopic(run: RecordKey): string {
  return JSON.stringify([run.collection, run.ownerId, run.id]);
}

function statements(names: SchemaNames) {
  const s = names.id;
  const live = `EXISTS (SELECT 1 FROM ${s}.records r WHERE r.collection = $1 AND r.owner_id = $2 AND r.id = $3 AND (r.expires_at IS NULL OR r.expires_at > $4))`;
  return {
    applyChange: applyChangeStatement(names),
    items: `SELECT key, data FROM ${s}.run_items WHERE collection = $1 AND owner_id = $2 AND run_id = $3 AND ${live} ORDER BY key`,
    events: `SELECT seq, event FROM ${s}.run_events
      WHERE collection = $1 AND owner_id = $2 AND run_id = $3 AND seq > $5 AND ${live} ORDER BY seq LIMIT $6`,
    lastSeq: `SELECT last_seq FROM ${s}.records WHERE collection = $1 AND owner_id = $2 AND id = $3 AND (expires_at IS NULL OR expires_at > $4)`,
    watch: `INSERT INTO ${s}.journal_watchers (topic, holder, expires_at) SELECT topic, $2, $3 FROM unnest($1::text[]) AS topic
      ON CONFLICT (topic, holder) DO UPDATE SET expires_at = excluded.expires_at`,
    unwatch: `DELETE FROM ${s}.journal_watchers WHERE topic = $1 AND holder = $2`,
  };
}
