// The provider's one pool of connections (node-postgres): every statement goes through query(),
// parameterised, optionally as a named prepared statement (parsed once per connection), and every
// failure to reach the database comes out as StorageUnavailableError. Every use is bounded (decision
// 3511): getting a connection gives up after connectTimeoutMs, a statement after STATEMENT_TIMEOUT_MS,
// so a database that stops answering (a frozen host) is an outage within seconds, never a hang.
// Availability changes are logged once per transition, with driver text scrubbed of the connection
// string's secrets.
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { describeFailure, isUnavailableCause, toStorageError } from './unavailable.js';

export interface PostgresLog {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
}

// bigint columns hold epoch milliseconds and counters, all far inside Number's safe range.
const INT8_OID = 20;
const parseInt8 = (value: string): number => Number(value);
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown => (oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)),
};

/** How long to wait for a connection (a new one, or one of the pool's) before giving up. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long query() waits for a statement's answer before it gives up (decision 3511). Client-side on
 * purpose: a server that is stopped or cut off runs no statement_timeout. The connection is then
 * destroyed (node-postgres's pool drops a client released with an error, and ending a client with a
 * statement still outstanding destroys its socket), never reused. The server may still run the
 * statement once it answers again: the outcome of a write that timed out is unknown, as it is when a
 * connection breaks mid-statement.
 */
export const STATEMENT_TIMEOUT_MS = 5_000;

export interface QueryOptions {
  /**
   * false: the statement waits for its answer however long the database takes. Only for a write its
   * caller retries until it is written (a run's checkpoint): one that gave up may still be applied
   * later, and the retry would apply it twice.
   */
  readonly bounded?: boolean;
}

export interface PgDatabaseOptions {
  readonly connectionString: string;
  readonly maxConnections: number;
  readonly log: PostgresLog;
  /** How long to wait for a connection (new or from the pool) before giving up; default CONNECT_TIMEOUT_MS. */
  readonly connectTimeoutMs?: number;
  /** How long query() waits for a statement's answer; default STATEMENT_TIMEOUT_MS. */
  readonly statementTimeoutMs?: number;
}

export class PgDatabase {
  readonly #pool: pg.Pool;
  readonly #config: pg.ClientConfig;
  readonly #connectionString: string;
  readonly #log: PostgresLog;
  readonly #statementTimeoutMs: number;
  /** Unknown until the first answer: failing to reach it at start-up is the caller's to report. */
  #reachable: boolean | undefined = undefined;

  constructor(options: PgDatabaseOptions) {
    this.#connectionString = options.connectionString;
    this.#log = options.log;
    this.#statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
    // Parsed here rather than handed over as a string: the driver then keeps the password in a
    // non-enumerable field, so a logged pool or client never shows it.
    this.#config = {
      ...parseConnectionString(options.connectionString),
      types,
      keepAlive: true,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      application_name: 'portcullis',
    };
    this.#pool = new pg.Pool({ ...this.#config, max: options.maxConnections, idleTimeoutMillis: 30_000 });
    // An idle connection that dies (server restart) is dropped by the pool; without a listener the
    // 'error' event would crash the process.
    this.#pool.on('error', (error) => this.#failed(error));
  }

  /** Rows of one parameterised statement; `name` makes it a prepared statement. Bounded in time (see above). */
  async query<R extends object>(text: string, values: readonly unknown[], name?: string, options?: QueryOptions): Promise<R[]> {
    // `query_timeout` per statement (the driver reads it from the query's config; its types omit it),
    // not for the whole client: migrations wait on an advisory lock for as long as another instance
    // migrates, and the LISTEN connection idles. A run's checkpoint opts out (QueryOptions).
    const statement: pg.QueryConfig & { readonly query_timeout?: number } = {
      text,
      values: values as unknown[],
      ...(name !== undefined ? { name } : {}),
      ...(options?.bounded === false ? {} : { query_timeout: this.#statementTimeoutMs }),
    };
    try {
      const result = await this.#pool.query<R>(statement);
      this.#succeeded();
      return result.rows;
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /** A connection of the pool for a multi-statement unit (migrations); released afterwards. */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#failed(error);
    }
    let broken: Error | undefined;
    try {
      const result = await work(client);
      this.#succeeded();
      return result;
    } catch (error) {
      if (isUnavailableCause(error)) broken = error as Error;
      throw this.#failed(error);
    } finally {
      client.release(broken);
    }
  }

  /** A client outside the pool (the LISTEN connection), not yet connected. */
  newClient(): pg.Client {
    return new pg.Client(this.#config);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  #succeeded(): void {
    if (this.#reachable === false) this.#log.info({}, 'storage: the database is reachable again');
    this.#reachable = true;
  }

  #failed(error: unknown): unknown {
    if (isUnavailableCause(error)) {
      if (this.#reachable === true) this.#log.warn({ cause: this.describe(error) }, 'storage: the database is unreachable');
      if (this.#reachable !== undefined) this.#reachable = false;
    }
    return toStorageError(error);
  }

  /** A one-line description of a driver failure, safe for a log line or a start-up message. */
  describe(error: unknown): string {
    return describeFailure(error, this.#connectionString);
  }
}

/** The driver's config from the URI; a malformed one is refused without echoing it (URL errors carry their input). */
function parseConnectionString(connectionString: string): pg.ClientConfig {
  try {
    return parseIntoClientConfig(connectionString);
  } catch {
    throw new RangeError('the PostgreSQL connection string is not a valid libpq URI');
  }
}
