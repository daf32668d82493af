// Wake-ups between instances over LISTEN/NOTIFY: one dedicated connection per storage instance
// listens on the deployment's one channel (named after its schema) and dispatches each notification
// to the in-process subscribers of its topic. A payload is `<kind> <instance> <topic> <body>`: the
// topic is a fixed-length hash (so long run keys or topics never approach NOTIFY's 8000-byte limit),
// and notifications an instance sent itself are skipped on arrival because it delivered them locally
// already, at once. When the connection drops it reconnects with backoff and LISTENs again, then
// tells its reconnect listeners (so journal watchers can catch up on what they missed); it never
// throws out of an event handler. Delivery is at most once: a hint, never the data.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { PgDatabase, PostgresLog } from './pg-database.js';
import type { SchemaNames } from '../schema-names.js';

export type NotificationKind = 'j' | 's';
type Handler = (body: string) => void;

const INSTANCE_LENGTH = 16;
const TOPIC_LENGTH = 22;
const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;

export class PgNotificationHub {
  /** This storage instance: its own notifications come back and are skipped. */
  readonly instanceId = randomBytes(12).toString('base64url');
  readonly #db: PgDatabase;
  readonly #names: SchemaNames;
  readonly #log: PostgresLog;
  readonly #handlers = new Map<string, Set<Handler>>();
  readonly #reconnectListeners = new Set<() => void>();
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  #backoffMs = MIN_BACKOFF_MS;

  constructor(db: PgDatabase, names: SchemaNames, log: PostgresLog) {
    this.#db = db;
    this.#names = names;
    this.#log = log;
  }

  /** Connects and LISTENs; throws when the database cannot be reached. */
  async start(): Promise<void> {
    await this.#connect();
  }

  topicId(kind: NotificationKind, topic: string): string {
    return createHash('sha256').update(`${kind}\u0000${topic}`).digest('base64url').slice(0, TOPIC_LENGTH);
  }

  /** The payload up to its body, for a notification from this instance. */
  prefix(kind: NotificationKind, topicId: string): string {
    return `${kind} ${this.instanceId} ${topicId} `;
  }

  subscribe(kind: NotificationKind, topicId: string, handler: Handler): () => void {
    const key = `${kind}${topicId}`;
    let handlers = this.#handlers.get(key);
    if (handlers === undefined) this.#handlers.set(key, (handlers = new Set()));
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.#handlers.get(key) === handlers) this.#handlers.delete(key);
    };
  }

  /** Delivers to this instance's subscribers on a later microtask (the database echo is skipped). */
  deliverLocal(kind: NotificationKind, topicId: string, body: string): void {
    for (const handler of [...(this.#handlers.get(`${kind}${topicId}`) ?? [])]) queueMicrotask(() => this.#call(handler, body));
  }

  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = this.#db.newClient();
    // Registered before connecting and never removed: a late error on an abandoned client must not
    // become an unhandled 'error' event.
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (message) => this.#dispatch(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.#names.channelId}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
  }

  #lost(client: pg.Client, error: Error | undefined): void {
    if (this.#client !== client) return;
    this.#client = null;
    void client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#log.warn({ cause: error === undefined ? 'connection ended' : this.#db.describe(error) }, 'storage: the notification connection was lost; reconnecting');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry !== null) return;
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(MAX_BACKOFF_MS, this.#backoffMs * 2);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#connect().then(
        () => this.#reconnected(),
        () => this.#scheduleReconnect(),
      );
    }, delay);
    this.#retry.unref();
  }

  #reconnected(): void {
    if (this.#closed || this.#client === null) return;
    this.#backoffMs = MIN_BACKOFF_MS;
    this.#log.info({}, 'storage: the notification connection is back');
    for (const listener of [...this.#reconnectListeners]) {
      try {
        listener();
      } catch (error) {
        this.#log.warn({ cause: this.#db.describe(error) }, 'storage: a reconnect listener failed');
      }
    }
  }

  #dispatch(message: pg.Notification): void {
    const payload = message.payload;
    if (message.channel !== this.#names.schema || payload === undefined) return;
    const kind = payload[0];
    const instanceEnd = 2 + INSTANCE_LENGTH;
    const topicEnd = instanceEnd + 1 + TOPIC_LENGTH;
    if ((kind !== 'j' && kind !== 's') || payload[1] !== ' ' || payload[instanceEnd] !== ' ' || payload[topicEnd] !== ' ') return;
    if (payload.slice(2, instanceEnd) === this.instanceId) return;
    const handlers = this.#handlers.get(`${kind}${payload.slice(instanceEnd + 1, topicEnd)}`);
    if (handlers === undefined) return;
    const body = payload.slice(topicEnd + 1);
    for (const handler of [...handlers]) this.#call(handler, body);
  }

  #call(handler: Handler, body: string): void {
    try {
      handler(body);
    } catch (error) {
      this.#log.warn({ cause: error instanceof Error ? error.message : String(error) }, 'storage: a notification subscriber threw');
    }
  }
}
