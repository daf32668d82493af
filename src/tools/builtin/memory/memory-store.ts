// Per-owner key-value memory held in process, with bounds and TTLs judged by the injected clock.
// It keeps no cross-owner view at all: every method takes the owner id first. Not persisted.
import type { Clock } from '../../../platform/clock/index.js';
import { memoryLimits } from './memory-limits.js';

interface Entry {
  /** The serialized value: stored as text so a caller can never alias or mutate it. */
  readonly json: string;
  readonly expiresAt: number | undefined;
}

export interface MemoryValue {
  readonly value: unknown;
  readonly expiresAt: number | undefined;
}

export type MemorySetResult =
  | { readonly ok: true; readonly expiresAt: number | undefined }
  | { readonly ok: false; readonly error: string };

const keyPattern = new RegExp(memoryLimits.keyPattern);

export function isValidMemoryKey(key: string): boolean {
  return key.length >= 1 && key.length <= memoryLimits.maxKeyLength && keyPattern.test(key);
}

export class MemoryStore {
  readonly #clock: Clock;
  readonly #owners = new Map<string, Map<string, Entry>>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get(ownerId: string, key: string): MemoryValue | undefined {
    const entry = this.#live(ownerId)?.get(key);
    return entry === undefined ? undefined : { value: JSON.parse(entry.json) as unknown, expiresAt: entry.expiresAt };
  }

  set(ownerId: string, key: string, value: unknown, ttlSeconds?: number): MemorySetResult {
    const json = JSON.stringify(value);
    if (json === undefined) return { ok: false, error: 'The value must be JSON.' };
    if (Buffer.byteLength(json, 'utf8') > memoryLimits.maxValueBytes) {
      return { ok: false, error: `The value is larger than ${memoryLimits.maxValueBytes} bytes serialized.` };
    }
    const entries = this.#live(ownerId) ?? new Map<string, Entry>();
    if (!entries.has(key) && entries.size >= memoryLimits.maxKeysPerOwner) {
      return { ok: false, error: `Memory is full (${memoryLimits.maxKeysPerOwner} keys); delete a key first.` };
    }
    const expiresAt = ttlSeconds === undefined ? undefined : this.#clock.now() + ttlSeconds * 1000;
    entries.set(key, { json, expiresAt });
    this.#owners.set(ownerId, entries);
    return { ok: true, expiresAt };
  }

  list(ownerId: string, prefix = ''): string[] {
    const keys = [...(this.#live(ownerId)?.keys() ?? [])].filter((key) => key.startsWith(prefix));
    // Code-unit order, not locale order: stable whatever the host's locale.
    return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, memoryLimits.maxKeysPerOwner);
  }

  delete(ownerId: string, key: string): boolean {
    const entries = this.#live(ownerId);
    if (entries === undefined) return false;
    const deleted = entries.delete(key);
    if (entries.size === 0) this.#owners.delete(ownerId);
    return deleted;
  }

  clear(): void {
    this.#owners.clear();
  }

  /** The owner's entries with expired ones purged first, so bounds count live keys only. */
  #live(ownerId: string): Map<string, Entry> | undefined {
    const entries = this.#owners.get(ownerId);
    if (entries === undefined) return undefined;
    const now = this.#clock.now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) entries.delete(key);
    }
    if (entries.size === 0) {
      this.#owners.delete(ownerId);
      return undefined;
    }
    return entries;
  }
}
