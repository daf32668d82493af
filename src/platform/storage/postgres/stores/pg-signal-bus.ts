// SignalBus on PostgreSQL: publish is one pg_notify on the deployment's channel; subscribers on this
// instance are called at once (on a later microtask), those on other instances when the NOTIFY
// arrives on their listening connection. At most once, possibly late: a hint, never the data.
import { assertSignalMessage, type SignalBus, type SignalHandler } from '../../signal-bus.js';
import type { PgDatabase } from '../connection/pg-database.js';
import type { PgNotificationHub } from '../connection/pg-notification-hub.js';
import type { SchemaNames } from '../schema-names.js';

export class PgSignalBus implements SignalBus {
  readonly #db: PgDatabase;
  readonly #hub: PgNotificationHub;
  readonly #channel: string;

  constructor(db: PgDatabase, hub: PgNotificationHub, names: SchemaNames) {
    this.#db = db;
    this.#hub = hub;
    this.#channel = names.schema;
  }

  async publish(topic: string, message: string): Promise<void> {
    assertSignalMessage(message);
    const topicId = this.#hub.topicId('s', topic);
    await this.#db.query('SELECT pg_notify($1, $2)', [this.#channel, `${this.#hub.prefix('s', topicId)}${message}`], 'portcullis_notify');
    this.#hub.deliverLocal('s', topicId, message);
  }

  subscribe(topic: string, handler: SignalHandler): () => void {
    return this.#hub.subscribe('s', this.#hub.topicId('s', topic), handler);
  }
}
