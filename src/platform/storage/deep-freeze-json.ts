// Freezes a JSON value in place, all the way down, and returns it: the memory provider hands out the
// stored object itself, so nothing a caller does afterwards can change what is stored. Objects already
// frozen are taken as frozen all the way down (everything stored went through here).
export function deepFreezeJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) freezeTree(value);
  return value;
}

/** A loop over keys, not Object.values: no array per object (a workflow step stores several objects). */
function freezeTree(value: object): void {
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) freezeChild(value[i]);
    return;
  }
  // JSON data: its own enumerable keys are exactly what for-in visits.
  for (const key in value) freezeChild((value as Record<string, unknown>)[key]);
}

function freezeChild(child: unknown): void {
  if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) freezeTree(child);
}
