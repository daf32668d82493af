// Measures a JSON value's serialized size in UTF-8 bytes without serializing it, and stops as soon
// as it passes a limit: an over-large value costs the measure only up to the limit, never a copy.
// Strings count their UTF-8 bytes plus quotes (escapes are not expanded); iterative, so a deeply
// nested value cannot overflow the stack.

/** Serialized size of `value` when it is at most `limit`; otherwise some number greater than `limit`. */
export function jsonSize(value: unknown, limit: number): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    size += scalarSize(next, pending);
    if (size > limit) return size;
  }
  return size;
}

/** The size of a scalar, or of an array's or object's own punctuation and keys (its items are queued). */
function scalarSize(value: unknown, pending: unknown[]): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value, 'utf8') + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return 4; // undefined, functions and symbols serialize as null inside arrays (or are dropped)
  }
  if (value === null) return 4;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) pending.push(item);
    return 2 + Math.max(0, value.length - 1);
  }
  const keys = Object.keys(value);
  let size = 2 + Math.max(0, keys.length - 1);
  for (const key of keys) {
    size += Buffer.byteLength(key, 'utf8') + 3; // quotes and colon
    pending.push((value as Record<string, unknown>)[key]);
  }
  return size;
}
