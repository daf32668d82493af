// Per-owner key-value memory held in process, with bounds and TTLs judged by the injected clock.
// It keeps no cross-owner view except the counts its bounds need: every method takes the owner id
// first. Bounded per value, per owner (keys and bytes) and in the number of owners held, so no
// caller can make the host hold more than maxOwners × maxBytesPerOwner. Not persisted.
import type { Clock } from '../../../platform/clock/index.js';
import { memoryLimits } from './memory-limits.js';

interface Entry {
  /** The serialized value: stored as text so a caller can never alias or mutate it. */
  readonly json: string;
  readonly expiresAt: number | undefined;
  /** UTF-8 bytes of the key and the serialized value, counted against the owner's budget. */
  readonly bytes: number;
}

interface OwnerMemory {
  readonly entries: Map<string, Entry>;
  bytes: number;
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
  /** Owners holding at least one entry, host-wide. */
  readonly maxOwners: number;
}

const keyPattern = new RegExp(memoryLimits.keyPattern);

export function isValidMemoryKey(key: string): boolean {
  return key.length >= 1 && key.length <= memoryLimits.maxKeyLength && keyPattern.test(key);
}

export class MemoryStore {
  readonly #clock: Clock;
  readonly #bounds: MemoryBounds;
  readonly #owners = new Map<string, OwnerMemory>();

  constructor(clock: Clock, bounds: MemoryBounds) {
    this.#clock = clock;
    this.#bounds = bounds;
  }

  get(ownerId: string, key: string): MemoryValue | undefined {
    const entry = this.#live(ownerId)?.entries.get(key);
    return entry === undefined ? undefined : { value: JSON.parse(entry.json) as unknown, expiresAt: entry.expiresAt };
  }

  set(ownerId: string, key: string, value: unknown, ttlSeconds?: number): MemorySetResult {
    const json = JSON.stringify(value);
    if (json === undefined) return { ok: false, error: 'The value must be JSON.' };
    const valueBytes = Buffer.byteLength(json, 'utf8');
    if (valueBytes > memoryLimits.maxValueBytes) {
      return { ok: false, error: `The value is larger than ${memoryLimits.maxValueBytes} bytes serialized.` };
    }
    const owner = this.#live(ownerId) ?? this.#admit();
    if (owner === undefined) return { ok: false, error: 'Memory is full on this host: it holds entries for as many callers as it may; try again later.' };
    const previous = owner.entries.get(key);
    if (previous === undefined && owner.entries.size >= memoryLimits.maxKeysPerOwner) {
      return { ok: false, error: `Memory is full (${memoryLimits.maxKeysPerOwner} keys); delete a key first.` };
    }
    const bytes = Buffer.byteLength(key, 'utf8') + valueBytes;
    if (owner.bytes - (previous?.bytes ?? 0) + bytes > this.#bounds.maxBytesPerOwner) {
      return { ok: false, error: `Memory is full (${this.#bounds.maxBytesPerOwner} bytes of keys and values); delete a key first.` };
    }
    const expiresAt = ttlSeconds === undefined ? undefined : this.#clock.now() + ttlSeconds * 1000;
    owner.entries.set(key, { json, expiresAt, bytes });
    owner.bytes += bytes - (previous?.bytes ?? 0);
    this.#owners.set(ownerId, owner);
    return { ok: true, expiresAt };
  }

  list(ownerId: string, prefix = ''): string[] {
    const keys = [...(this.#live(ownerId)?.entries.keys() ?? [])].filter((key) => key.startsWith(prefix));
    // Code-unit order, not locale order: stable whatever the host's locale.
    return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, memoryLimits.maxKeysPerOwner);
  }

  delete(ownerId: string, key: string): boolean {
    const owner = this.#live(ownerId);
    const entry = owner?.entries.get(key);
    if (owner === undefined || entry === undefined) return false;
    owner.entries.delete(key);
    owner.bytes -= entry.bytes;
    if (owner.entries.size === 0) this.#owners.delete(ownerId);
    return true;
  }

  clear(): void {
    this.#owners.clear();
  }

  /** Room for a new owner, once owners whose entries have all expired are let go; undefined when full. */
  #admit(): OwnerMemory | undefined {
    if (this.#owners.size >= this.#bounds.maxOwners) for (const ownerId of [...this.#owners.keys()]) this.#live(ownerId);
    return this.#owners.size >= this.#bounds.maxOwners ? undefined : { entries: new Map(), bytes: 0 };
  }

  /** The owner's memory with expired entries purged first, so bounds count live keys only. */
  #live(ownerId: string): OwnerMemory | undefined {
    const owner = this.#owners.get(ownerId);
    if (owner === undefined) return undefined;
    const now = this.#clock.now();
    for (const [key, entry] of owner.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
        owner.entries.delete(key);
        owner.bytes -= entry.bytes;
      }
    }
    if (owner.entries.size === 0) {
      this.#owners.delete(ownerId);
      return undefined;
    }
    return owner;
  }
}
