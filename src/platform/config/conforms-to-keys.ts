// Checks that the object build-config assembled holds every row where the key table puts it (through
// every item of each map), so it may carry the type computed from that table. `settled` also wants
// every required key set. A failure is a bug in the walk, never a configuration problem.
import type { ConfigFromKeys, ConfigPhase } from './config-from-keys.js';
import { targetPath } from './config-target.js';
import { isMapSegment, type KeyEntry } from './key-entry.js';

export function conformsToKeys<Row extends KeyEntry, Phase extends ConfigPhase>(
  value: unknown,
  rows: readonly Row[],
  phase: Phase,
): value is ConfigFromKeys<Row, Phase> {
  return rows.every((row) => {
    const pattern = row.key.split(':');
    const path = row.target ?? targetPath(pattern, pattern, row.codec.fieldSuffix);
    return holds(value, path, phase === 'decoded' && row.required === true);
  });
}

/** `mayLack`: the last field itself may be absent (a required key before the problems were counted). */
function holds(node: unknown, path: readonly string[], mayLack: boolean): boolean {
  const [head, ...rest] = path;
  if (head === undefined) return node !== undefined;
  if (typeof node !== 'object' || node === null) return false;
  const entries: [string, unknown][] = Object.entries(node);
  const children = isMapSegment(head) ? entries : entries.filter(([name]) => name === head);
  if (children.length === 0 && !isMapSegment(head)) return mayLack && rest.length === 0;
  return children.every(([, child]) => holds(child, rest, mayLack));
}
