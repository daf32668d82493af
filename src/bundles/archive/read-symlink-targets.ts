// Reads the (small) content of every symlink entry, which is its target, before anything is written:
// the links are judged against the whole archive first and only created once every file exists.
import type { ArchiveEntry } from './archive-entry.js';
import type { ArchiveReader } from './archive-reader.js';
import { ArchiveRejected } from './archive-rejected.js';
import type { DataStarts } from './check-entry-layout.js';
import { MAX_PATH_BYTES } from './check-entry-name.js';
import { memorySink } from './entry-sinks.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { dataStartOf, streamEntry } from './stream-entry.js';

export async function readSymlinkTargets(
  archive: ArchiveReader,
  entries: readonly ArchiveEntry[],
  dataStarts: DataStarts,
  budget: ExpansionBudget,
): Promise<Map<string, Buffer>> {
  const targets = new Map<string, Buffer>();
  for (const entry of entries) {
    if (entry.kind !== 'symlink') continue;
    if (entry.uncompressedSize > MAX_PATH_BYTES) throw new ArchiveRejected('unresolvable-symlink');
    const { sink, bytes } = memorySink();
    await streamEntry(archive, entry, dataStartOf(dataStarts, entry), sink, budget);
    targets.set(entry.path, bytes());
  }
  return targets;
}
