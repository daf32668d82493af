// SlotStore for one process: slots per (kind, key) with their holder and lapse time on the injected clock.
// Answers at once: the port's promises wrap synchronous work, which the platform's request path also
// uses directly (immediate-answers.ts). Ids are a counter: they never leave the process, and a short key hashes cheaply (a
// direct invocation takes and drops one slot). A group left empty is kept until the next renew (the
// holder's heartbeat) so a caller's back-to-back invocations do not rebuild it every time.
import type { Clock } from '../../clock/index.js';
import type { SlotStore } from '../slot-store.js';

interface Slot {
  readonly group: string;
  readonly holder: string;
  expiresAt: number;
}

export class MemorySlotStore implements SlotStore {
  readonly #clock: Clock;
  readonly #slots = new Map<string, Slot>();
  readonly #groups = new Map<string, Set<string>>();
  #nextId = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  acquire(kind: string, key: string, limit: number, holder: string, ttlMs: number): Promise<string | null> {
    return Promise.resolve(this.acquireNow(kind, key, limit, holder, ttlMs));
  }

  /** acquire, answered at once. */
  acquireNow(kind: string, key: string, limit: number, holder: string, ttlMs: number): string | null {
    const group = groupOf(kind, key);
    if (this.#liveCount(group) >= limit) return null;
    this.#nextId += 1;
    const id = `slot-${this.#nextId}`;
    this.#slots.set(id, { group, holder, expiresAt: this.#clock.now() + ttlMs });
    let ids = this.#groups.get(group);
    if (ids === undefined) this.#groups.set(group, (ids = new Set()));
    ids.add(id);
    return id;
  }

  release(slotId: string): Promise<void> {
    this.#drop(slotId);
    return Promise.resolve();
  }

  /** (kind, key) groups tracked, empty ones included until the next renew. */
  get trackedGroups(): number {
    return this.#groups.size;
  }

  async renew(holder: string, ttlMs: number): Promise<number> {
    const now = this.#clock.now();
    for (const [group, ids] of this.#groups) if (ids.size === 0) this.#groups.delete(group);
    let renewed = 0;
    for (const [id, slot] of this.#slots) {
      if (slot.holder !== holder) continue;
      if (slot.expiresAt <= now) {
        this.#drop(id);
        continue;
      }
      slot.expiresAt = now + ttlMs;
      renewed += 1;
    }
    return renewed;
  }

  async releaseAll(holder: string): Promise<void> {
    for (const [id, slot] of this.#slots) if (slot.holder === holder) this.#drop(id);
  }

  async held(kind: string, key: string): Promise<number> {
    return this.#liveCount(groupOf(kind, key));
  }

  /** Live slots of the group, lapsed ones dropped first (no arrays: every direct invocation asks). */
  #liveCount(group: string): number {
    const ids = this.#groups.get(group);
    if (ids === undefined) return 0;
    const now = this.#clock.now();
    // Deleting the entry being visited is safe while iterating a Set.
    for (const id of ids) if ((this.#slots.get(id)?.expiresAt ?? 0) <= now) this.#drop(id);
    return ids.size;
  }

  /** release, done at once. */
  releaseNow(id: string): void {
    this.#drop(id);
  }

  #drop(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#slots.delete(id);
    this.#groups.get(slot.group)?.delete(id);
  }
}

function groupOf(kind: string, key: string): string {
  return `${kind}\u0000${key}`;
}
