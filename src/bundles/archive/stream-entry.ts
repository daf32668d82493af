// Delivers one entry's bytes, inflated and metered, to a sink; the archive's bytes come from the
// staging ArchiveReader at the data start the layout check found. The inflater must consume exactly
// the declared compressed size: hidden bytes after the deflate stream are refused. A small entry (at
// most 1 MiB either way) is inflated in one synchronous call, its output capped one byte past what it
// may produce, and written in one piece (or handed whole to a writer of its own: readSmallEntry); a
// larger one streams, so nothing large is ever held whole.
// Failures are sorted by origin: guards pass through, zlib errors are corrupt data, staging write
// failures stay server errors, and anything else is a malformed archive.
import { finished, pipeline } from 'node:stream/promises';
import { Readable, type Writable } from 'node:stream';
import { createInflateRaw, inflateRawSync, type Zlib } from 'node:zlib';
import type { ArchiveEntry } from './archive-entry.js';
import type { ArchiveReader } from './archive-reader.js';
import { ArchiveRejected, isArchiveRejected } from './archive-rejected.js';
import type { DataStarts } from './check-entry-layout.js';
import { EntryCount, EntryMeter } from './entry-meter.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { StagingWriteFailed } from './staging-write-failed.js';
import { METHOD_DEFLATED } from './zip-format.js';

/** Entries up to this size, compressed and expanded, are inflated in one call. */
export const SMALL_ENTRY_BYTES = 1024 * 1024;

export async function streamEntry(archive: ArchiveReader, entry: ArchiveEntry, dataStart: number, sink: Writable, budget: ExpansionBudget): Promise<void> {
  try {
    if (isSmallEntry(entry)) {
      sink.end(await smallEntryBytes(archive, entry, dataStart, budget));
      await finished(sink);
    } else {
      await streamLargeEntry(archive, entry, dataStart, sink, budget);
    }
  } catch (error) {
    throw sorted(error);
  }
}

/** Whether an entry is inflated in one call (and may be written in one piece). */
export function isSmallEntry(entry: ArchiveEntry): boolean {
  return entry.compressedSize <= SMALL_ENTRY_BYTES && entry.uncompressedSize <= SMALL_ENTRY_BYTES;
}

/** A small entry's bytes, inflated and metered, for a writer of its own (failures sorted as streamEntry sorts them). */
export async function readSmallEntry(archive: ArchiveReader, entry: ArchiveEntry, dataStart: number, budget: ExpansionBudget): Promise<Buffer> {
  try {
    return await smallEntryBytes(archive, entry, dataStart, budget);
  } catch (error) {
    throw sorted(error);
  }
}

function sorted(error: unknown): unknown {
  if (isArchiveRejected(error)) return error;
  if (error instanceof StagingWriteFailed) return error.cause;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return new ArchiveRejected(typeof code === 'string' && code.startsWith('Z_') ? 'corrupt-data' : 'malformed-archive', { cause: error });
}

/** The checked data start of an entry; every entry has one once the layout check passed. */
export function dataStartOf(dataStarts: DataStarts, entry: ArchiveEntry): number {
  const start = dataStarts.get(entry.index);
  if (start === undefined) throw new Error('An entry reached extraction without a checked layout.');
  return start;
}

const deflated = (entry: ArchiveEntry): boolean => entry.method === METHOD_DEFLATED && entry.compressedSize > 0;

async function smallEntryBytes(archive: ArchiveReader, entry: ArchiveEntry, dataStart: number, budget: ExpansionBudget): Promise<Buffer> {
  const raw = Buffer.allocUnsafe(entry.compressedSize);
  const { bytesRead } = await archive.read(raw, 0, raw.length, dataStart);
  if (bytesRead !== raw.length) throw new ArchiveRejected('truncated');
  let output: Buffer = raw;
  if (deflated(entry)) {
    // One byte past the entry's own size, or past what the archive may still expand to, is a refusal.
    const room = budget.max - budget.written;
    const cap = Math.max(0, Math.min(entry.uncompressedSize, room)) + 1;
    let inflated: { buffer: Buffer; engine: Zlib };
    try {
      inflated = inflateRawSync(raw, { info: true, maxOutputLength: cap }) as unknown as { buffer: Buffer; engine: Zlib };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
      throw new ArchiveRejected(entry.uncompressedSize <= room ? 'size-mismatch' : 'expands-too-far');
    }
    output = inflated.buffer;
    const count = new EntryCount(entry, budget);
    const refused = count.take(output) ?? count.finish();
    if (refused !== null) throw refused;
    if (inflated.engine.bytesWritten !== entry.compressedSize) throw new ArchiveRejected('size-mismatch');
  } else {
    const count = new EntryCount(entry, budget);
    const refused = count.take(output) ?? count.finish();
    if (refused !== null) throw refused;
  }
  return output;
}

async function streamLargeEntry(archive: ArchiveReader, entry: ArchiveEntry, dataStart: number, sink: Writable, budget: ExpansionBudget): Promise<void> {
  const raw = Readable.from(archive.range(dataStart, dataStart + entry.compressedSize), { objectMode: false });
  const meter = new EntryMeter(entry, budget);
  const inflater = deflated(entry) ? createInflateRaw() : null;
  await (inflater === null ? pipeline(raw, meter, sink) : pipeline(raw, inflater, meter, sink));
  if (inflater !== null && inflater.bytesWritten !== entry.compressedSize) throw new ArchiveRejected('size-mismatch');
}
