// Writes the validated archive into the fresh staging directory: directories first (0700, parents
// before children, each checked with lstat if it already exists), then regular files (0600, opened
// O_CREAT|O_EXCL|O_NOFOLLOW so nothing is ever overwritten or written through a link: staged-file.ts),
// and symlinks last, once every file they may point at exists.
//
// With a StagingWriter, each small entry is read, inflated and metered here, in archive order, and
// its bytes are handed to the writer's thread in batches (at most two batches in flight, so at most
// 2 MiB held); large entries stream to their files here as before. Without one (the CLI's check),
// files are written FILE_WRITES_AT_ONCE at a time, each an open, its writes and a close.
//
// On the first failure no further file is started, the writes under way finish, and that failure is
// thrown: no write is still under way when the caller removes the directory.
import { lstat, mkdir, open, symlink } from 'node:fs/promises';
import type { ArchiveEntry } from './archive-entry.js';
import type { ArchiveReader } from './archive-reader.js';
import { archiveNamespace } from './archive-namespace.js';
import type { DataStarts } from './check-entry-layout.js';
import { fileSink } from './entry-sinks.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { STAGED_FILE_FLAGS, STAGED_FILE_MODE } from './staged-file.js';
import { stagingPath } from './staging-path.js';
import { BATCH_BYTES, BATCH_FILES, type StagedFileWriter } from './staging-writer.js';
import type { StagingWriteBatch } from './staging-writes-requests.js';
import { dataStartOf, isSmallEntry, readSmallEntry, streamEntry } from './stream-entry.js';

/** libuv's default thread-pool size: more files at once would only queue behind each other. */
export const FILE_WRITES_AT_ONCE = 4;

export async function writeStagingTree(
  archive: ArchiveReader,
  stagingDir: string,
  entries: readonly ArchiveEntry[],
  dataStarts: DataStarts,
  symlinkTargets: ReadonlyMap<string, string>,
  budget: ExpansionBudget,
  writer?: StagedFileWriter,
): Promise<void> {
  const directories = [...archiveNamespace(entries)].flatMap(([path, kind]) => (kind === 'directory' ? [path] : []));
  const parentsFirst = directories.sort((a, b) => a.split('/').length - b.split('/').length);
  for (const directory of parentsFirst) await makeDirectory(stagingPath(stagingDir, directory));
  const files = entries.filter((entry) => entry.kind === 'file');
  const streamed = async (entry: ArchiveEntry): Promise<void> => {
    const handle = await open(stagingPath(stagingDir, entry.path), STAGED_FILE_FLAGS, STAGED_FILE_MODE);
    try {
      await streamEntry(archive, entry, dataStartOf(dataStarts, entry), fileSink(handle), budget);
    } finally {
      await handle.close();
    }
  };
  if (writer === undefined) await eachAtMost(files, FILE_WRITES_AT_ONCE, streamed);
  else await writeInBatches(files, writer, streamed, (entry) => readSmallEntry(archive, entry, dataStartOf(dataStarts, entry), budget), stagingDir);
  for (const entry of entries) {
    if (entry.kind !== 'symlink') continue;
    const target = symlinkTargets.get(entry.path);
    if (target === undefined) throw new Error('A symlink entry reached the writer without a checked target.');
    await symlink(target, stagingPath(stagingDir, entry.path));
  }
}

interface Batch {
  readonly paths: string[];
  readonly contents: Buffer[];
  bytes: number;
}

async function writeInBatches(
  files: readonly ArchiveEntry[],
  writer: StagedFileWriter,
  streamed: (entry: ArchiveEntry) => Promise<void>,
  read: (entry: ArchiveEntry) => Promise<Buffer>,
  stagingDir: string,
): Promise<void> {
  const inFlight: Promise<void>[] = [];
  let failure: { readonly error: unknown } | undefined;
  let batch: Batch = { paths: [], contents: [], bytes: 0 };
  const send = async (): Promise<void> => {
    if (batch.paths.length === 0) return;
    const sent = packed(batch);
    batch = { paths: [], contents: [], bytes: 0 };
    if (inFlight.length >= 2) await inFlight.shift();
    if (failure !== undefined) return;
    // Settled here, so a batch that fails while the next one is read is never an unhandled rejection.
    inFlight.push(writeBatch(writer, sent).catch((error: unknown) => void (failure ??= { error })));
  };
  try {
    for (const entry of files) {
      if (failure !== undefined) break;
      if (!isSmallEntry(entry)) {
        await streamed(entry);
        continue;
      }
      const bytes = await read(entry);
      batch.paths.push(stagingPath(stagingDir, entry.path));
      batch.contents.push(bytes);
      batch.bytes += bytes.length;
      if (batch.paths.length >= BATCH_FILES || batch.bytes >= BATCH_BYTES) await send();
    }
    if (failure === undefined) await send();
  } finally {
    await Promise.all(inFlight);
  }
  if (failure !== undefined) throw failure.error;
}

/** A batch as the writer takes it: the files' bytes copied back to back, so the read buffers can go. */
function packed(batch: Batch): StagingWriteBatch {
  return { paths: batch.paths, sizes: batch.contents.map((bytes) => bytes.length), data: Buffer.concat(batch.contents, batch.bytes) };
}

/** One batch through the writer's thread, or here when its line is full (each file a slice of the one copy). */
async function writeBatch(writer: StagedFileWriter, batch: StagingWriteBatch): Promise<void> {
  if (await writer.write(batch)) return;
  const slices: Uint8Array[] = [];
  for (let start = 0, index = 0; index < batch.sizes.length; start += batch.sizes[index]!, index += 1) {
    slices.push(batch.data.subarray(start, start + batch.sizes[index]!));
  }
  await eachAtMost(batch.paths, FILE_WRITES_AT_ONCE, async (path, index) => {
    const handle = await open(path, STAGED_FILE_FLAGS, STAGED_FILE_MODE);
    try {
      await handle.writeFile(slices[index]!);
    } finally {
      await handle.close();
    }
  });
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
export async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next;
      const item = items[index] as T;
      next += 1;
      try {
        await work(item, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== undefined) throw failure.error;
}
