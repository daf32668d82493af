// The TTL store contract every feature codes against. Async so a Redis implementation can replace the
// in-memory one without changing a caller; it stores values, it does not clone or serialise them.

export interface TtlStore<V> {
  /** The live value, or undefined. An expired entry reads as absent and is removed. */
  get(key: string): Promise<V | undefined>;
  /** Stores (or replaces) the value; it expires `ttlMs` from now. */
  set(key: string, value: V, ttlMs: number): Promise<void>;
  /** Sliding TTL: the live entry now expires `ttlMs` from now. Returns its value, undefined if absent or expired. */
  touch(key: string, ttlMs: number): Promise<V | undefined>;
  /** True when a live entry was removed. */
  delete(key: string): Promise<boolean>;
  /** Epoch milliseconds at which the live entry expires, or undefined. */
  expiresAt(key: string): Promise<number | undefined>;
  /** Removes every expired entry and returns their values, so owners can release what they hold. */
  sweep(): Promise<V[]>;
  /** Number of live entries. */
  size(): Promise<number>;
  /** Live values, oldest write first. */
  values(): Promise<V[]>;
}
