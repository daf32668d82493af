// Streams one entry's stored bytes (yauzl, raw mode) through our own inflater and the meter into a
// sink; nothing is held whole in memory. The inflater must consume exactly the declared compressed
// size: hidden bytes after the deflate stream are refused. Failures are sorted by origin: guards pass
// through, zlib errors are corrupt data, staging write failures stay server errors, and anything else
// yauzl raises is a malformed archive.
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { ZipFile } from 'yauzl';
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected, isArchiveRejected } from './archive-rejected.js';
import { EntryMeter } from './entry-meter.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { StagingWriteFailed } from './staging-write-failed.js';
import { METHOD_DEFLATED } from './zip-format.js';

export async function streamEntry(zip: ZipFile, entry: ArchiveEntry, sink: Writable, budget: ExpansionBudget): Promise<void> {
  const meter = new EntryMeter(entry, budget);
  const inflater = entry.method === METHOD_DEFLATED && entry.compressedSize > 0 ? createInflateRaw() : null;
  try {
    const raw: Readable = await zip.openReadStreamPromise(entry.source, { decodeFileData: false });
    await (inflater === null ? pipeline(raw, meter, sink) : pipeline(raw, inflater, meter, sink));
  } catch (error) {
    if (isArchiveRejected(error)) throw error;
    if (error instanceof StagingWriteFailed) throw error.cause;
    const code = (error as NodeJS.ErrnoException | null)?.code;
    throw new ArchiveRejected(typeof code === 'string' && code.startsWith('Z_') ? 'corrupt-data' : 'malformed-archive', { cause: error });
  }
  if (inflater !== null && inflater.bytesWritten !== entry.compressedSize) throw new ArchiveRejected('size-mismatch');
}
