// Writes the validated archive into the fresh staging directory: directories first (0700, parents
// before children, each checked with lstat if it already exists), then regular files (0600, opened
// O_CREAT|O_EXCL|O_NOFOLLOW so nothing is ever overwritten or written through a link), and symlinks
// last, once every file they may point at exists. Files are written FILE_WRITES_AT_ONCE at a time:
// each file is an open, its writes and a close, every one a thread-pool round trip, and one file at a
// time left the pool's threads idle between them (2,000 small entries: 6,000 round trips in a row).
// On the first failure no further file is started, the ones under way finish, and that failure is
// thrown.
import { constants } from 'node:fs';
import { lstat, mkdir, open, symlink } from 'node:fs/promises';
import type { ArchiveEntry } from './archive-entry.js';
import type { ArchiveReader } from './archive-reader.js';
import { archiveNamespace } from './archive-namespace.js';
import type { DataStarts } from './check-entry-layout.js';
import { fileSink } from './entry-sinks.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { stagingPath } from './staging-path.js';
import { dataStartOf, streamEntry } from './stream-entry.js';

const FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** libuv's default thread-pool size: more files at once would only queue behind each other. */
export const FILE_WRITES_AT_ONCE = 4;

export async function writeStagingTree(
  archive: ArchiveReader,
  stagingDir: string,
  entries: readonly ArchiveEntry[],
  dataStarts: DataStarts,
  symlinkTargets: ReadonlyMap<string, string>,
  budget: ExpansionBudget,
): Promise<void> {
  const directories = [...archiveNamespace(entries)].flatMap(([path, kind]) => (kind === 'directory' ? [path] : []));
  const parentsFirst = directories.sort((a, b) => a.split('/').length - b.split('/').length);
  for (const directory of parentsFirst) await makeDirectory(stagingPath(stagingDir, directory));
  const files = entries.filter((entry) => entry.kind === 'file');
  await eachAtMost(files, FILE_WRITES_AT_ONCE, async (entry) => {
    const handle = await open(stagingPath(stagingDir, entry.path), FILE_FLAGS, 0o600);
    try {
      await streamEntry(archive, entry, dataStartOf(dataStarts, entry), fileSink(handle), budget);
    } finally {
      await handle.close();
    }
  });
  for (const entry of entries) {
    if (entry.kind !== 'symlink') continue;
    const target = symlinkTargets.get(entry.path);
    if (target === undefined) throw new Error('A symlink entry reached the writer without a checked target.');
    await symlink(target, stagingPath(stagingDir, entry.path));
  }
}

async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = await lstat(path);
    if (!existing.isDirectory() || existing.isSymbolicLink()) throw new Error('A staging directory path is taken by a non-directory.');
  }
}

/**
 * Runs `work` over `items` in order, at most `limit` at once. After the first failure nothing more
 * starts; it rejects with that failure once every started call has settled (so no write is still
 * under way when the caller removes the directory).
 */
export async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== undefined) throw failure.error;
}
