// The storage port's per-key concurrency slots (open streams, executing invocations, conversation
// holds): at most `limit` held at once per (kind, key) across every instance. A slot belongs to the
// instance that took it and lapses unless that instance renews it, so a crashed instance frees its
// slots within the lease TTL. Excess is refused at once (null), never queued.

export interface SlotStore {
  /** The new slot's id, or null when `limit` live slots of (kind, key) are held. */
  acquire(kind: string, key: string, limit: number, holder: string, ttlMs: number): Promise<string | null>;
  /** Idempotent. */
  release(slotId: string): Promise<void>;
  /** Extends every live slot of the holder; returns how many. */
  renew(holder: string, ttlMs: number): Promise<number>;
  /** Drops every slot of the holder (shutdown). */
  releaseAll(holder: string): Promise<void>;
  /** Live slots of (kind, key). */
  held(kind: string, key: string): Promise<number>;
}
