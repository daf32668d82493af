// The raw-byte half of "one archive, read one way". Every entry's local record (header, data, data
// descriptor) must lie between byte 0 and the central directory, records must tile that span exactly:
// overlapping data (the overlapping-file bomb that defeats per-entry ratios), bytes before the first
// record, gaps between records, and descriptors or local headers that disagree with the central
// directory are all refused. The first entry must start at byte 0. Answers where each entry's data
// starts, so extraction reads exactly the bytes checked here.
import type { PositionalReader } from './archive-reader.js';
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected } from './archive-rejected.js';
import { unicodePathData } from './check-unicode-path.js';
import type { ArchiveEnd } from './read-archive-end.js';
import { readAt } from './read-at.js';
import { readLocalHeader, type LocalHeader } from './read-local-header.js';
import { readUInt64 } from './read-uint64.js';
import { DATA_DESCRIPTOR_SIGNATURE, FLAG_DATA_DESCRIPTOR, FLAG_ENCRYPTED, FLAG_UTF8, LOCAL_HEADER_SIZE } from './zip-format.js';

interface Span {
  readonly entry: ArchiveEntry;
  readonly local: LocalHeader;
  readonly dataEnd: number;
}

const AGREEING_FLAGS = FLAG_ENCRYPTED | FLAG_DATA_DESCRIPTOR;
const MAX_DESCRIPTOR_BYTES = 24;

/** Where each entry's data starts (after its local header), by entry index. */
export type DataStarts = ReadonlyMap<number, number>;

export async function checkEntryLayout(handle: PositionalReader, entries: readonly ArchiveEntry[], end: ArchiveEnd): Promise<DataStarts> {
  const spans: Span[] = [];
  for (const entry of entries) {
    if (entry.localHeaderOffset + LOCAL_HEADER_SIZE > end.directoryOffset) throw new ArchiveRejected('overlapping-entries');
    const local = await readLocalHeader(handle, entry.localHeaderOffset);
    const dataEnd = local.dataStart + entry.compressedSize;
    if (dataEnd > end.directoryOffset) throw new ArchiveRejected('overlapping-entries');
    spans.push({ entry, local, dataEnd });
  }
  const sorted = spans.sort((a, b) => a.entry.localHeaderOffset - b.entry.localHeaderOffset);
  const nextStart = (index: number): number => sorted[index + 1]?.entry.localHeaderOffset ?? end.directoryOffset;
  sorted.forEach((span, index) => {
    if (nextStart(index) < span.dataEnd) throw new ArchiveRejected('overlapping-entries');
  });
  if ((sorted[0]?.entry.localHeaderOffset ?? end.directoryOffset) !== 0) throw new ArchiveRejected('leading-data');
  for (const [index, span] of sorted.entries()) {
    checkLocalAgreement(span.entry, span.local);
    await checkTrailer(handle, span.entry, span.dataEnd, nextStart(index) - span.dataEnd);
  }
  return new Map(spans.map((span) => [span.entry.index, span.local.dataStart]));
}

function checkLocalAgreement(entry: ArchiveEntry, local: LocalHeader): void {
  if (!local.rawName.equals(entry.rawName)) throw new ArchiveRejected('header-mismatch');
  // The UTF-8 flag only changes how a non-ASCII name reads, so only then must both headers agree on it.
  const agreeing = AGREEING_FLAGS | (entry.rawName.every((byte) => byte < 0x80) ? 0 : FLAG_UTF8);
  if (local.method !== entry.method || (local.flags & agreeing) !== (entry.flags & agreeing)) throw new ArchiveRejected('header-mismatch');
  const localUnicodePath = unicodePathData(local.extraFields);
  if (localUnicodePath !== null && (entry.unicodePathField === null || !localUnicodePath.equals(entry.unicodePathField))) {
    throw new ArchiveRejected('unicode-path-mismatch');
  }
  if ((entry.flags & FLAG_DATA_DESCRIPTOR) !== 0) return;
  if (local.crc32 !== entry.crc32) throw new ArchiveRejected('crc-mismatch');
  if (local.sizes === null) throw new ArchiveRejected('header-mismatch');
  if (local.sizes.compressed !== entry.compressedSize || local.sizes.uncompressed !== entry.uncompressedSize) {
    throw new ArchiveRejected('size-mismatch');
  }
}

/** What follows the data: nothing, or exactly one data descriptor (signed or not, 32- or 64-bit sizes). */
async function checkTrailer(handle: PositionalReader, entry: ArchiveEntry, dataEnd: number, gap: number): Promise<void> {
  if ((entry.flags & FLAG_DATA_DESCRIPTOR) === 0) {
    if (gap !== 0) throw new ArchiveRejected('unaccounted-data');
    return;
  }
  if (gap > MAX_DESCRIPTOR_BYTES) throw new ArchiveRejected('unaccounted-data');
  const bytes = await readAt(handle, dataEnd, gap);
  const signed = bytes.length >= 16 && bytes.readUInt32LE(0) === DATA_DESCRIPTOR_SIGNATURE;
  const body = bytes.subarray(signed ? 4 : 0);
  if (body.length !== 12 && body.length !== 20) throw new ArchiveRejected('header-mismatch');
  const wide = body.length === 20;
  const compressed = wide ? readUInt64(body, 4) : body.readUInt32LE(4);
  const uncompressed = wide ? readUInt64(body, 12) : body.readUInt32LE(8);
  if (body.readUInt32LE(0) !== entry.crc32) throw new ArchiveRejected('crc-mismatch');
  if (compressed !== entry.compressedSize || uncompressed !== entry.uncompressedSize) throw new ArchiveRejected('size-mismatch');
}
