// Turns one yauzl central-directory entry into an ArchiveEntry, refusing it on the guards that need
// only the entry itself: encryption, compression method, the Unicode path field, the name, the kind.
import type { Entry } from 'yauzl';
import type { ArchiveEntry } from './archive-entry.js';
import type { ArchiveGuard } from './archive-guard.js';
import { ArchiveRejected } from './archive-rejected.js';
import { checkEntryFlags } from './check-entry-flags.js';
import { checkEntryName } from './check-entry-name.js';
import { checkUnicodePath, unicodePathData } from './check-unicode-path.js';
import { classifyEntryKind } from './classify-entry-kind.js';

export function describeEntry(entry: Entry, index: number): ArchiveEntry {
  const flags = entry.generalPurposeBitFlag;
  const refuse = (guard: ArchiveGuard | null): void => {
    if (guard !== null) throw new ArchiveRejected(guard);
  };
  refuse(checkEntryFlags(flags, entry.compressionMethod));
  refuse(checkUnicodePath(entry.fileNameRaw, flags, entry.extraFields));
  refuse(checkEntryName(entry.fileName));
  const kind = classifyEntryKind(entry.fileName, entry.versionMadeBy, entry.externalFileAttributes);
  if (kind !== 'file' && kind !== 'directory' && kind !== 'symlink') throw new ArchiveRejected(kind);
  if (kind === 'directory' && entry.uncompressedSize !== 0) throw new ArchiveRejected('size-mismatch');
  const path = entry.fileName.endsWith('/') ? entry.fileName.slice(0, -1) : entry.fileName;
  return {
    index,
    name: entry.fileName,
    path,
    segments: path.split('/'),
    kind,
    flags,
    method: entry.compressionMethod,
    crc32: entry.crc32,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    localHeaderOffset: entry.relativeOffsetOfLocalHeader,
    rawName: entry.fileNameRaw,
    unicodePathField: unicodePathData(entry.extraFields),
    source: entry,
  };
}
