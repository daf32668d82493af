// The bounds of the per-owner memory, shared by the parameter schemas and the store.

export const memoryLimits = Object.freeze({
  maxKeyLength: 256,
  /** Characters a key may use; `/` and `:` let callers namespace keys for `list {prefix}`. */
  keyPattern: '^[A-Za-z0-9._:/-]+$',
  maxValueBytes: 64 * 1024,
  maxKeysPerOwner: 1000,
  maxTtlSeconds: 30 * 24 * 60 * 60,
});
