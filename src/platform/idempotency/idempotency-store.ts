// Idempotency keys in the storage port (DESIGN.md §14), so a key holds across instances: one record per
// (owner, method, route with its ids, key), under the owner, holding the body's fingerprint and, once
// answered, the answer (status, Location, content type, body). The first request inserts it `InFlight`
// (an atomic insert: of two racing requests exactly one proceeds); its answer makes it `Done`; an answer
// that is not to be kept (5xx, 401, 429) removes it, so a retry runs. An `InFlight` record whose request
// never finished (its instance died) is taken over once IN_FLIGHT_LEASE_MS has passed. Records expire
// after `Idempotency:Ttl` and are swept: what one owner can keep is bounded by the route's rate policy
// times the TTL (every keyed route has one), each record by the size of its answer.
import { createHash } from 'node:crypto';
import type { Clock } from '../clock/index.js';
import type { RecordKey, Storage, StoredRecord } from '../storage/index.js';

export const IDEMPOTENCY_COLLECTION = 'idempotency-key';
/** How long a request may take before its key is taken over by a retry (its instance presumably died). */
export const IN_FLIGHT_LEASE_MS = 5 * 60_000;

/** An answer as it is replayed. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly location: string | null;
  readonly body: string;
}

interface KeyRecord {
  readonly fingerprint: string;
  readonly answer: StoredAnswer | null;
  /** When the request now answering it began (a takeover restarts it). */
  readonly startedAt: number;
}

export type Admission =
  /** First use (or a takeover): go on; the answer is recorded with `complete`. */
  | { readonly kind: 'proceed' }
  /** Answered before with the same body: send that answer again. */
  | { readonly kind: 'replay'; readonly answer: StoredAnswer }
  | { readonly kind: 'in-progress' }
  | { readonly kind: 'reused' };

/** Where a key is kept: its scope (method and route with its ids) and the key, digested to a fixed-size id. */
export function keyRecordId(method: string, route: string, key: string): string {
  return createHash('sha256').update(`${method}\u0000${route}\u0000${key}`).digest('base64url');
}

export class IdempotencyStore {
  readonly #storage: Storage;
  readonly #clock: Clock;
  readonly #ttlMs: number;

  constructor(options: { readonly storage: Storage; readonly clock: Clock; readonly ttlMs: number }) {
    this.#storage = options.storage;
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs;
  }

  async begin(ownerId: string, id: string, fingerprint: string): Promise<Admission> {
    const now = this.#clock.now();
    const key: RecordKey = { collection: IDEMPOTENCY_COLLECTION, ownerId, id };
    const inserted = await this.#storage.records.insert<KeyRecord>({ ...key, state: 'InFlight', createdAt: now, expiresAt: now + this.#ttlMs, data: { fingerprint, answer: null, startedAt: now } });
    if (inserted.outcome !== 'exists') return { kind: 'proceed' };
    return this.#existing(key, inserted.record, fingerprint, now);
  }

  async #existing(key: RecordKey, record: StoredRecord<KeyRecord>, fingerprint: string, now: number): Promise<Admission> {
    if (record.data.fingerprint !== fingerprint) return { kind: 'reused' };
    if (record.state === 'Done' && record.data.answer !== null) return { kind: 'replay', answer: record.data.answer };
    if (now - record.data.startedAt < IN_FLIGHT_LEASE_MS) return { kind: 'in-progress' };
    // Its request never finished: this one takes the key over (compare-and-set: one retry does).
    const taken = await this.#storage.records.update<KeyRecord>(
      key,
      { state: 'InFlight', expiresAt: now + this.#ttlMs, data: { ...record.data, startedAt: now } },
      { version: record.version, states: ['InFlight'] },
    );
    return taken === undefined ? { kind: 'in-progress' } : { kind: 'proceed' };
  }

  /** Keeps the answer for repeats. */
  async complete(ownerId: string, id: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    await this.#storage.records.update<KeyRecord>(
      { collection: IDEMPOTENCY_COLLECTION, ownerId, id },
      { state: 'Done', data: { fingerprint, answer, startedAt: this.#clock.now() }, expiresAt: this.#clock.now() + this.#ttlMs },
      { states: ['InFlight'] },
    );
  }

  /** Forgets the key (an answer not to be kept): a retry runs again. */
  async release(ownerId: string, id: string): Promise<void> {
    await this.#storage.records.delete({ collection: IDEMPOTENCY_COLLECTION, ownerId, id });
  }

  async sweep(): Promise<number> {
    return (await this.#storage.records.sweep(IDEMPOTENCY_COLLECTION)).length;
  }
}
