// Per-owner key-value memory in the storage port (so entries survive a restart and are shared by every
// instance on PostgreSQL), with bounds and TTLs judged by the injected clock. Every entry is a record
// under its owner: one owner never reads, lists or deletes another's keys. Bounded per value, per owner
// (keys and bytes) and in the number of owners holding entries: an owner is admitted by a registry
// record whose count is capped atomically, so no caller can make the host hold more than
// maxOwners × maxBytesPerOwner. Calls of one owner are serialised by the governed call (the tool is not
// concurrency-safe); across instances two simultaneous writes of one owner may overshoot the byte bound
// by one value at most.
import type { Clock } from '../../../platform/clock/index.js';
import type { Storage, StoredRecord } from '../../../platform/storage/index.js';
import { memoryLimits } from './memory-limits.js';

const ENTRIES = 'memory';
const OWNERS = 'memory-owner';
/** Owner registrations sit under no owner, so their count is the number of owners holding entries. */
const REGISTRY = '';
const HELD = 'Held';

interface Entry {
  /** The serialized value: stored as text, exactly as it was set. */
  readonly json: string;
  /** UTF-8 bytes of the key and the serialized value, counted against the owner's budget. */
  readonly bytes: number;
}

export interface MemoryValue {
  readonly value: unknown;
  readonly expiresAt: number | undefined;
}

export type MemorySetResult =
  | { readonly ok: true; readonly expiresAt: number | undefined }
  | { readonly ok: false; readonly error: string };

export interface MemoryBounds {
  /** UTF-8 bytes of keys plus serialized values one owner may hold. */
  readonly maxBytesPerOwner: number;
  /** Owners holding at least one entry, across the storage. */
  readonly maxOwners: number;
}

const keyPattern = new RegExp(memoryLimits.keyPattern);

export function isValidMemoryKey(key: string): boolean {
  return key.length >= 1 && key.length <= memoryLimits.maxKeyLength && keyPattern.test(key);
}

export class MemoryStore {
  readonly #storage: Storage;
  readonly #clock: Clock;
  readonly #bounds: MemoryBounds;

  constructor(storage: Storage, clock: Clock, bounds: MemoryBounds) {
    this.#storage = storage;
    this.#clock = clock;
    this.#bounds = bounds;
  }

  async get(ownerId: string, key: string): Promise<MemoryValue | undefined> {
    const record = await this.#storage.records.get<Entry>({ collection: ENTRIES, ownerId, id: key });
    return record === undefined ? undefined : { value: JSON.parse(record.data.json) as unknown, expiresAt: record.expiresAt ?? undefined };
  }

  async set(ownerId: string, key: string, value: unknown, ttlSeconds?: number): Promise<MemorySetResult> {
    const json = JSON.stringify(value);
    if (json === undefined) return { ok: false, error: 'The value must be JSON.' };
    const valueBytes = Buffer.byteLength(json, 'utf8');
    if (valueBytes > memoryLimits.maxValueBytes) {
      return { ok: false, error: `The value is larger than ${memoryLimits.maxValueBytes} bytes serialized.` };
    }
    const entries = await this.#entries(ownerId);
    const previous = entries.find((entry) => entry.id === key);
    if (previous === undefined && entries.length >= memoryLimits.maxKeysPerOwner) {
      return { ok: false, error: `Memory is full (${memoryLimits.maxKeysPerOwner} keys); delete a key first.` };
    }
    const bytes = Buffer.byteLength(key, 'utf8') + valueBytes;
    const held = entries.reduce((sum, entry) => sum + entry.data.bytes, 0);
    if (held - (previous?.data.bytes ?? 0) + bytes > this.#bounds.maxBytesPerOwner) {
      return { ok: false, error: `Memory is full (${this.#bounds.maxBytesPerOwner} bytes of keys and values); delete a key first.` };
    }
    const now = this.#clock.now();
    const expiresAt = ttlSeconds === undefined ? null : now + ttlSeconds * 1000;
    const others = entries.filter((entry) => entry.id !== key).map((entry) => entry.expiresAt);
    if (!(await this.#register(ownerId, latest([...others, expiresAt]), now))) {
      return { ok: false, error: 'Memory is full on this host: it holds entries for as many callers as it may; try again later.' };
    }
    await this.#storage.records.put<Entry>({ collection: ENTRIES, ownerId, id: key, createdAt: now, expiresAt, data: { json, bytes } });
    return { ok: true, expiresAt: expiresAt ?? undefined };
  }

  async list(ownerId: string, prefix = ''): Promise<string[]> {
    const keys = (await this.#entries(ownerId)).map((entry) => entry.id).filter((key) => key.startsWith(prefix));
    // Code-unit order, not locale order: stable whatever the host's locale.
    return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, memoryLimits.maxKeysPerOwner);
  }

  async delete(ownerId: string, key: string): Promise<boolean> {
    const deleted = await this.#storage.records.delete({ collection: ENTRIES, ownerId, id: key });
    if (deleted && (await this.#entries(ownerId)).length === 0) await this.#storage.records.delete({ collection: OWNERS, ownerId: REGISTRY, id: ownerId });
    return deleted;
  }

  /** Drops expired entries and the registrations of owners whose entries all expired. */
  async sweep(): Promise<void> {
    await this.#storage.records.sweep(ENTRIES);
    await this.#storage.records.sweep(OWNERS);
  }

  /** The owner's live entries (at most maxKeysPerOwner of them). */
  async #entries(ownerId: string): Promise<StoredRecord<Entry>[]> {
    const entries: StoredRecord<Entry>[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<Storage['records']['list']>> = await this.#storage.records.list<Entry>(ENTRIES, ownerId, { limit: 200, cursor });
      entries.push(...(page.records as StoredRecord<Entry>[]));
      cursor = page.nextCursor;
    } while (cursor !== null && entries.length <= memoryLimits.maxKeysPerOwner);
    return entries;
  }

  /** Admits the owner (at most maxOwners registered) or extends its registration to its latest entry expiry. */
  async #register(ownerId: string, expiresAt: number | null, now: number): Promise<boolean> {
    const registration = { collection: OWNERS, ownerId: REGISTRY, id: ownerId, state: HELD, createdAt: now, expiresAt, data: {} };
    const result = await this.#storage.records.insert(registration, { ownerCap: { max: this.#bounds.maxOwners, states: [HELD] } });
    if (result.outcome === 'owner-cap') return false;
    if (result.outcome === 'exists') await this.#storage.records.put(registration);
    return true;
  }
}

/** The latest of some expiry instants, where null (never) beats any instant. */
function latest(expiries: ReadonlyArray<number | null>): number | null {
  let max = 0;
  for (const expiry of expiries) {
    if (expiry === null) return null;
    max = Math.max(max, expiry);
  }
  return max;
}
