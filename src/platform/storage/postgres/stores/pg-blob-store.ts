// BlobStore on PostgreSQL: bytes per (owner, key) in a bytea column, stored out of line uncompressed
// (archives arrive compressed). Another owner's key is a miss.
import type { BlobStore } from '../../blob-store.js';
import type { PgDatabase } from '../connection/pg-database.js';
import type { SchemaNames } from '../schema-names.js';

export class PgBlobStore implements BlobStore {
  readonly #db: PgDatabase;
  readonly #put: string;
  readonly #get: string;
  readonly #delete: string;

  constructor(db: PgDatabase, { id: s }: SchemaNames) {
    this.#db = db;
    this.#put = `INSERT INTO ${s}.blobs (owner_id, key, bytes) VALUES ($1, $2, $3) ON CONFLICT (owner_id, key) DO UPDATE SET bytes = excluded.bytes`;
    this.#get = `SELECT bytes FROM ${s}.blobs WHERE owner_id = $1 AND key = $2`;
    this.#delete = `DELETE FROM ${s}.blobs WHERE owner_id = $1 AND key = $2 RETURNING key`;
  }

  async put(ownerId: string, key: string, bytes: () => Promise<Buffer>): Promise<void> {
    await this.#db.query(this.#put, [ownerId, key, await bytes()]);
  }

  async get(ownerId: string, key: string): Promise<Buffer | undefined> {
    return (await this.#db.query<{ bytes: Buffer }>(this.#get, [ownerId, key]))[0]?.bytes;
  }

  async delete(ownerId: string, key: string): Promise<boolean> {
    return (await this.#db.query(this.#delete, [ownerId, key])).length > 0;
  }
}
