// The tree an archive describes: every entry's path with its kind, plus each parent path the entries
// imply as a directory. Collision checks have run first, so one path has one kind.
import type { ArchiveEntry, ArchiveEntryKind } from './archive-entry.js';

export function archiveNamespace(entries: readonly ArchiveEntry[]): Map<string, ArchiveEntryKind> {
  const kinds = new Map<string, ArchiveEntryKind>();
  for (const entry of entries) {
    for (let depth = 1; depth < entry.segments.length; depth += 1) kinds.set(entry.segments.slice(0, depth).join('/'), 'directory');
  }
  for (const entry of entries) kinds.set(entry.path, entry.kind);
  return kinds;
}
