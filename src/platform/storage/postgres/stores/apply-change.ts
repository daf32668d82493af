// The one call behind records.update and journal.commit: apply_change (migration 1) patches the
// record under its guard, upserts items and appends events in one round trip and one transaction;
// with an outbox, its overload of migration 2 writes the outbox entries in the same transaction.
import type { OutboxEntry, RecordKey, RecordPatch, UpdateGuard } from '../../records.js';
import type { RunItem } from '../../run-journal.js';
import type { PgDatabase, QueryOptions } from '../connection/pg-database.js';
import { RECORD_COLUMNS, jsonParam, type RecordRow } from './record-row.js';
import type { SchemaNames } from '../schema-names.js';

export interface Change {
  readonly patch?: RecordPatch<unknown>;
  readonly guard?: UpdateGuard;
  readonly items?: readonly RunItem[];
  readonly events?: readonly unknown[];
  /** Payload prefix of the notification sent when events are appended. */
  readonly notify?: string;
  readonly outbox?: readonly OutboxEntry[];
  /** Other records whose expiry the change sets (migration 5). */
  readonly expire?: { readonly keys: readonly RecordKey[]; readonly at: number };
  /** false: no statement bound (a run's checkpoint its caller retries; RunJournal's CommitOptions.waitOut). */
  readonly bounded?: boolean;
}

export interface ApplyChangeStatements {
  readonly plain: string;
  /** The overload that also writes an outbox (one more parameter). */
  readonly outbox: string;
  /** The overload that also sets other records' expiry (two more: the outbox, maybe null, and the expiry). */
  readonly expire: string;
}

export type ChangedRow = RecordRow & { readonly last_seq: number };

export function applyChangeStatement(names: SchemaNames): ApplyChangeStatements {
  const call = (count: number): string => `SELECT ${RECORD_COLUMNS}, last_seq FROM ${names.id}.apply_change(${Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ')})`;
  return { plain: call(23), outbox: call(24), expire: call(25) };
}

/** An outbox as the json parameter the SQL functions of migration 2 read (rows of the records table). */
export function outboxParam(outbox: readonly OutboxEntry[]): string {
  return `[${outbox
    .map((entry) =>
      jsonParam({
        collection: entry.collection,
        owner_id: entry.ownerId,
        id: entry.id,
        scope: entry.scope ?? null,
        state: entry.state ?? null,
        created_at: entry.createdAt,
        expires_at: entry.expiresAt ?? null,
        lease_holder: entry.lease?.holder ?? null,
        lease_expires_at: entry.lease?.expiresAt ?? null,
        data: entry.data ?? null,
      }),
    )
    .join(',')}]`;
}

/** The expiry part of a change as the json parameter of migration 5's overload. */
function expireParam(expire: { readonly keys: readonly RecordKey[]; readonly at: number }): string {
  return JSON.stringify({ at: expire.at, keys: expire.keys.map((key) => ({ collection: key.collection, owner_id: key.ownerId, id: key.id })) });
}

const UNBOUNDED: QueryOptions = { bounded: false };

/** The record after the change, or undefined when it is missing (for that owner) or the guard refused. */
export async function applyChange(db: PgDatabase, statements: ApplyChangeStatements, key: RecordKey, now: number, change: Change): Promise<ChangedRow | undefined> {
  const { patch, guard } = change;
  const lease = patch?.lease;
  // Later items of one key win, as successive writes would.
  const items = change.items === undefined || change.items.length === 0 ? undefined : new Map(change.items.map((item) => [item.key, item.data]));
  const events = change.events !== undefined && change.events.length > 0 ? change.events : undefined;
  const outbox = change.outbox !== undefined && change.outbox.length > 0 ? change.outbox : undefined;
  const expire = change.expire !== undefined && change.expire.keys.length > 0 ? change.expire : undefined;
  const rows = await db.query<ChangedRow>(
    expire !== undefined ? statements.expire : outbox === undefined ? statements.plain : statements.outbox,
    [
      key.collection,
      key.ownerId,
      key.id,
      now,
      patch !== undefined,
      patch?.state !== undefined,
      patch?.state ?? null,
      patch?.scope !== undefined,
      patch?.scope ?? null,
      patch?.expiresAt !== undefined,
      patch?.expiresAt ?? null,
      patch?.data !== undefined,
      patch?.data === undefined ? null : jsonParam(patch.data),
      lease !== undefined,
      lease?.holder ?? null,
      lease?.expiresAt ?? null,
      guard?.version ?? null,
      guard?.states === undefined ? null : [...guard.states],
      guard?.leaseHolder ?? null,
      items === undefined ? null : [...items.keys()],
      items === undefined ? null : `[${[...items.values()].map(jsonParam).join(',')}]`,
      events === undefined ? null : `[${events.map(jsonParam).join(',')}]`,
      change.notify ?? '',
      ...(expire !== undefined ? [outbox === undefined ? null : outboxParam(outbox), expireParam(expire)] : outbox === undefined ? [] : [outboxParam(outbox)]),
    ],
    expire !== undefined ? 'portcullis_apply_change_expire' : outbox === undefined ? 'portcullis_apply_change' : 'portcullis_apply_change_outbox',
    change.bounded === false ? UNBOUNDED : undefined,
  );
  return rows[0];
}
