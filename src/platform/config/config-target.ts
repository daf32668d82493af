// Where a key's value lands in AppConfig: `AppConfig` and `AI` are dropped, fixed segments become
// camelCase, map keys stay as written, and the codec's suffix is appended to the field
// (`AppConfig:AI:BundleExecution:HandleTtl` → bundleExecution.handleTtlMs). A key-table row may
// override this with an explicit target.
import { isMapSegment } from './key-entry.js';

export function targetPath(pattern: readonly string[], concrete: readonly string[], suffix = ''): string[] {
  const skip = pattern[1]?.toLowerCase() === 'ai' ? 2 : 1;
  const path = pattern.slice(skip).map((segment, index) =>
    isMapSegment(segment) ? (concrete[index + skip] ?? segment) : segment.charAt(0).toLowerCase() + segment.slice(1),
  );
  const last = path.length - 1;
  if (last >= 0 && suffix !== '' && !isMapSegment(pattern[pattern.length - 1] ?? '')) path[last] += suffix;
  return path;
}

/**
 * Sets `value` at `path`, creating sections on the way. Objects standing for configuration maps
 * have no prototype, so a subject id such as `constructor` or `__proto__` is only ever data.
 */
export function setAt(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = root;
  for (const name of path.slice(0, -1)) {
    const next = Object.hasOwn(node, name) ? node[name] : undefined;
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      define(node, name, created);
      node = created;
    } else {
      node = next as Record<string, unknown>;
    }
  }
  const last = path[path.length - 1];
  if (last !== undefined) define(node, last, value);
}

/** An empty object for a configuration map (no prototype: lookups never reach Object.prototype). */
export function emptyMap(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

function define(node: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true });
}
