// Finds and cross-checks the end records before anything else is trusted. yauzl takes the LAST end
// signature in the tail and believes it; this refuses the archives where that choice is ambiguous or
// wrong: a second self-consistent end record (a fake inside a comment or data), bytes after the end
// record, a directory that does not end where the end record begins (bytes before the archive, two
// archives glued together), and inconsistent zip64 records. It also applies the entry-count limit.
import type { PositionalReader } from './archive-reader.js';
import { ArchiveRejected } from './archive-rejected.js';
import { readAt } from './read-at.js';
import { readUInt64 } from './read-uint64.js';
import {
  CENTRAL_HEADER_SIGNATURE,
  END_RECORD_SIGNATURE,
  END_RECORD_SIZE,
  LOCAL_HEADER_SIGNATURE,
  MAX_COMMENT_LENGTH,
  ZIP64_END_RECORD_SIGNATURE,
  ZIP64_END_RECORD_SIZE,
  ZIP64_LOCATOR_SIGNATURE,
  ZIP64_LOCATOR_SIZE,
  ZIP64_SENTINEL_16,
  ZIP64_SENTINEL_32,
} from './zip-format.js';

export interface ArchiveEnd {
  readonly entryCount: number;
  readonly directoryOffset: number;
  readonly directorySize: number;
  /** Where the zip64 end record (or, without zip64, the end record) begins. */
  readonly directoryEnd: number;
  readonly zip64: boolean;
}

interface EndRecord {
  readonly disk: number;
  readonly directoryDisk: number;
  readonly entriesOnDisk: number;
  readonly entries: number;
  readonly directorySize: number;
  readonly directoryOffset: number;
}

export async function readArchiveEnd(handle: PositionalReader, fileSize: number, maxEntryCount: number): Promise<ArchiveEnd> {
  const tailStart = Math.max(0, fileSize - (END_RECORD_SIZE + MAX_COMMENT_LENGTH));
  const tail = await readAt(handle, tailStart, fileSize - tailStart);
  const candidates: number[] = [];
  for (let i = tail.length - END_RECORD_SIZE; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === END_RECORD_SIGNATURE) candidates.push(i);
  }
  const [chosen, ...earlier] = candidates;
  if (chosen === undefined) {
    const head = await readAt(handle, 0, 4);
    throw new ArchiveRejected(head.length === 4 && head.readUInt32LE(0) === LOCAL_HEADER_SIGNATURE ? 'truncated' : 'not-a-zip');
  }
  const endsTheFile = (at: number): boolean => at + END_RECORD_SIZE + tail.readUInt16LE(at + 20) === tail.length;
  // Another signature whose comment also reaches exactly the end of the file: two readers may pick
  // two different archives out of the same bytes.
  if (earlier.some(endsTheFile)) throw new ArchiveRejected('fake-eocd');
  if (!endsTheFile(chosen)) {
    const remainder = tail.length - chosen - END_RECORD_SIZE;
    throw new ArchiveRejected(tail.readUInt16LE(chosen + 20) < remainder ? 'trailing-data' : 'truncated');
  }
  const endPosition = tailStart + chosen;
  const record = parseEndRecord(tail.subarray(chosen));
  const end = await readZip64End(handle, endPosition, record);
  if (end.entryCount > maxEntryCount) throw new ArchiveRejected('too-many-entries');
  const archiveStart = end.directoryEnd - end.directorySize - end.directoryOffset;
  if (archiveStart < 0) throw new ArchiveRejected('fake-eocd');
  if (archiveStart > 0) {
    // Either every offset is shifted by bytes in front (a stub or another archive), or the directory
    // is where it says and bytes were slipped in between it and the end record.
    const atDeclared = await readAt(handle, end.directoryOffset, 4);
    const directoryWhereDeclared = end.entryCount > 0 && atDeclared.length === 4 && atDeclared.readUInt32LE(0) === CENTRAL_HEADER_SIGNATURE;
    throw new ArchiveRejected(directoryWhereDeclared ? 'unaccounted-data' : 'leading-data');
  }
  return end;
}

function parseEndRecord(bytes: Buffer): EndRecord {
  return {
    disk: bytes.readUInt16LE(4),
    directoryDisk: bytes.readUInt16LE(6),
    entriesOnDisk: bytes.readUInt16LE(8),
    entries: bytes.readUInt16LE(10),
    directorySize: bytes.readUInt32LE(12),
    directoryOffset: bytes.readUInt32LE(16),
  };
}

async function readZip64End(handle: PositionalReader, endPosition: number, record: EndRecord): Promise<ArchiveEnd> {
  const locator = endPosition >= ZIP64_LOCATOR_SIZE ? await readAt(handle, endPosition - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE) : Buffer.alloc(0);
  if (locator.length < ZIP64_LOCATOR_SIZE || locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) {
    if (record.disk !== 0 || record.directoryDisk !== 0) throw new ArchiveRejected('malformed-archive');
    if (record.entriesOnDisk !== record.entries) throw new ArchiveRejected('fake-eocd');
    return {
      entryCount: record.entries,
      directoryOffset: record.directoryOffset,
      directorySize: record.directorySize,
      directoryEnd: endPosition,
      zip64: false,
    };
  }
  const totalDisks = locator.readUInt32LE(16);
  if (locator.readUInt32LE(4) !== 0 || totalDisks > 1) throw new ArchiveRejected('malformed-archive');
  const zip64Position = readUInt64(locator, 8);
  const zip64 = await readAt(handle, zip64Position, ZIP64_END_RECORD_SIZE);
  if (zip64.length < ZIP64_END_RECORD_SIZE || zip64.readUInt32LE(0) !== ZIP64_END_RECORD_SIGNATURE) {
    throw new ArchiveRejected('fake-eocd');
  }
  // The zip64 end record must sit immediately before its locator.
  if (zip64Position + 12 + readUInt64(zip64, 4) !== endPosition - ZIP64_LOCATOR_SIZE) throw new ArchiveRejected('fake-eocd');
  if (zip64.readUInt32LE(16) !== 0 || zip64.readUInt32LE(20) !== 0) throw new ArchiveRejected('malformed-archive');
  const end: ArchiveEnd = {
    entryCount: readUInt64(zip64, 32),
    directorySize: readUInt64(zip64, 40),
    directoryOffset: readUInt64(zip64, 48),
    directoryEnd: zip64Position,
    zip64: true,
  };
  const agrees = (classic: number, sentinel: number, actual: number): boolean => classic === sentinel || classic === actual;
  const consistent =
    readUInt64(zip64, 24) === end.entryCount &&
    agrees(record.disk, ZIP64_SENTINEL_16, 0) &&
    agrees(record.directoryDisk, ZIP64_SENTINEL_16, 0) &&
    agrees(record.entriesOnDisk, ZIP64_SENTINEL_16, end.entryCount) &&
    agrees(record.entries, ZIP64_SENTINEL_16, end.entryCount) &&
    agrees(record.directorySize, ZIP64_SENTINEL_32, end.directorySize) &&
    agrees(record.directoryOffset, ZIP64_SENTINEL_32, end.directoryOffset);
  if (!consistent) throw new ArchiveRejected('fake-eocd');
  return end;
}
