// Reads the (small) content of every symlink entry, which is its target, before anything is written:
// the links are judged against the whole archive first and only created once every file exists.
import type { ZipFile } from 'yauzl';
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected } from './archive-rejected.js';
import { MAX_PATH_BYTES } from './check-entry-name.js';
import { memorySink } from './entry-sinks.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { streamEntry } from './stream-entry.js';

export async function readSymlinkTargets(zip: ZipFile, entries: readonly ArchiveEntry[], budget: ExpansionBudget): Promise<Map<string, Buffer>> {
  const targets = new Map<string, Buffer>();
  for (const entry of entries) {
    if (entry.kind !== 'symlink') continue;
    if (entry.uncompressedSize > MAX_PATH_BYTES) throw new ArchiveRejected('unresolvable-symlink');
    const { sink, bytes } = memorySink();
    await streamEntry(zip, entry, sink, budget);
    targets.set(entry.path, bytes());
  }
  return targets;
}
