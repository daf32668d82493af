// Freezes a plain data tree in place, all the way down, so no module can change configuration
// after start-up. Meant for JSON-like data; it does not walk into Maps, Sets or class instances.

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
