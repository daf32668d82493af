// A records row as the driver (or row_to_json) returns it, and its StoredRecord. Data travels as
// json text: written with JSON.stringify (never the driver's array conversion) and kept verbatim, so
// key order and numbers read back as written.
import type { StoredRecord } from '../../records.js';

export interface RecordRow {
  readonly collection: string;
  readonly owner_id: string;
  readonly id: string;
  readonly scope: string | null;
  readonly state: string | null;
  readonly created_at: number;
  readonly expires_at: number | null;
  readonly version: number;
  readonly lease_holder: string | null;
  readonly lease_expires_at: number | null;
  readonly data: unknown;
}

export const RECORD_COLUMNS = 'collection, owner_id, id, scope, state, created_at, expires_at, version, lease_holder, lease_expires_at, data';

export function toStoredRecord<T>(row: RecordRow): StoredRecord<T> {
  return {
    collection: row.collection,
    ownerId: row.owner_id,
    id: row.id,
    scope: row.scope,
    state: row.state,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    version: row.version,
    leaseHolder: row.lease_holder,
    leaseExpiresAt: row.lease_expires_at,
    data: row.data as T,
  };
}

/** JSON text for a json parameter (undefined, which JSON cannot carry, is stored as null). */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
