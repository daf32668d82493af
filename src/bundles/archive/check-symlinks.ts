// Resolves every symlink against the archive's own namespace before anything is written, the way the
// kernel would on the staged tree: segment by segment, `..` popping the real path, links inside the
// target substituted (chains), at most 40 hops (more is a loop). A link must end on an entry of the
// archive (file or directory), never above the staging root, and never on a directory that contains
// the link itself (a directory cycle that would send tree walkers round forever).
import { isUtf8 } from 'node:buffer';
import type { ArchiveEntry, ArchiveEntryKind } from './archive-entry.js';
import { archiveNamespace } from './archive-namespace.js';
import type { ArchiveGuard } from './archive-guard.js';
import { ArchiveRejected } from './archive-rejected.js';
import { MAX_PATH_BYTES } from './check-entry-name.js';

const MAX_HOPS = 40;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const MALFORMED_TARGET = /[\u0000-\u001f\u007f\\]/;
const ABSOLUTE_TARGET = /^(?:\/|[A-Za-z]:)/;

export function checkSymlinks(entries: readonly ArchiveEntry[], targets: ReadonlyMap<string, Buffer>): Map<string, string> {
  const kinds = archiveNamespace(entries);
  const decoded = new Map<string, string>();
  for (const [path, bytes] of targets) decoded.set(path, decodeTarget(bytes));
  for (const entry of entries) {
    if (entry.kind !== 'symlink') continue;
    const parent = entry.segments.slice(0, -1);
    const resolved = resolve(parent, decoded.get(entry.path) ?? '', kinds, decoded);
    const resolvedPath = resolved.join('/');
    const containsLink = resolved.length === 0 || parent.join('/') === resolvedPath || parent.join('/').startsWith(`${resolvedPath}/`);
    if (kinds.get(resolvedPath) !== 'file' && containsLink) throw new ArchiveRejected('symlink-loop');
  }
  return decoded;
}

function decodeTarget(bytes: Buffer): string {
  if (bytes.length === 0 || bytes.length > MAX_PATH_BYTES || !isUtf8(bytes)) throw new ArchiveRejected('unresolvable-symlink');
  const target = bytes.toString('utf8');
  if (ABSOLUTE_TARGET.test(target)) throw new ArchiveRejected('escaping-symlink');
  if (MALFORMED_TARGET.test(target)) throw new ArchiveRejected('unresolvable-symlink');
  return target;
}

function resolve(start: readonly string[], target: string, kinds: ReadonlyMap<string, ArchiveEntryKind>, links: ReadonlyMap<string, string>): string[] {
  const refuse = (guard: ArchiveGuard): never => {
    throw new ArchiveRejected(guard);
  };
  const resolved = [...start];
  const pending = target.split('/');
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift() ?? '';
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (resolved.length === 0) refuse('escaping-symlink');
      resolved.pop();
      continue;
    }
    resolved.push(segment);
    const path = resolved.join('/');
    const kind = kinds.get(path) ?? refuse('unresolvable-symlink');
    if (kind === 'symlink') {
      hops += 1;
      if (hops > MAX_HOPS) refuse('symlink-loop');
      resolved.pop();
      pending.unshift(...(links.get(path) ?? '').split('/'));
    } else if (kind === 'file' && pending.length > 0) {
      refuse('unresolvable-symlink');
    }
  }
  return resolved;
}
