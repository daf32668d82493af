// Cuts every string of an (already redacted) log object to a length, in place, and says so at the
// cut: a log line never carries megabytes of caller content, and a cut is never silent. Works on the
// copy redactValue made, so the caller's object is untouched; shared references and cycles are
// visited once.

/** A string longer than `max` characters, cut and marked with how much was left out. */
export function boundString(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

export function boundStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return boundString(value, max) as T;
  if (typeof value !== 'object' || value === null) return value;
  const seen = new Set<object>();
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    // Error messages and stacks are own but not enumerable; they are exactly what grows.
    for (const key of node instanceof Error ? Object.getOwnPropertyNames(node) : Object.keys(node)) {
      const item = record[key];
      if (typeof item === 'string') {
        if (item.length > max) Object.defineProperty(node, key, { value: boundString(item, max), enumerable: Object.prototype.propertyIsEnumerable.call(node, key), writable: true, configurable: true });
      } else if (typeof item === 'object' && item !== null) {
        pending.push(item);
      }
    }
  }
  return value;
}
