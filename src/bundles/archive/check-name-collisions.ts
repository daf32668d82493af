// Names that would land on the same path: exact duplicates, names equal after case folding and NFC
// (they collide on macOS and Windows), and a name used as a file or link while also being a directory
// (`a` and `a/b`), which is also how an entry would otherwise be written through a symlink.
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected } from './archive-rejected.js';
import { foldEntryName } from './fold-entry-name.js';

export function checkNameCollisions(entries: readonly ArchiveEntry[]): void {
  const exact = new Set<string>();
  for (const entry of entries) {
    if (exact.has(entry.name)) throw new ArchiveRejected('duplicate-entry');
    exact.add(entry.name);
  }
  const byFoldedPath = new Map<string, ArchiveEntry>();
  for (const entry of entries) {
    const key = foldEntryName(entry.path);
    const earlier = byFoldedPath.get(key);
    if (earlier !== undefined) {
      const sameShape = (earlier.kind === 'directory') === (entry.kind === 'directory');
      throw new ArchiveRejected(sameShape ? 'duplicate-entry' : 'name-conflict');
    }
    byFoldedPath.set(key, entry);
  }
  const impliedDirectories = new Set<string>();
  for (const entry of entries) {
    for (let depth = 1; depth < entry.segments.length; depth += 1) {
      impliedDirectories.add(foldEntryName(entry.segments.slice(0, depth).join('/')));
    }
  }
  for (const [key, entry] of byFoldedPath) {
    if (entry.kind !== 'directory' && impliedDirectories.has(key)) throw new ArchiveRejected('name-conflict');
  }
}
