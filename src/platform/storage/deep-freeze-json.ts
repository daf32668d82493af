// Freezes a JSON value in place, all the way down, and returns it: the memory provider hands out the
// stored object itself, so nothing a caller does afterwards can change what is stored.
export function deepFreezeJson<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value as Record<string, unknown>)) deepFreezeJson(child);
  return value;
}
