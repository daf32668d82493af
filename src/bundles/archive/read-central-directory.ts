// Walks the central directory once through yauzl (lazy entries) and describes each entry, refusing on
// the first per-entry guard. The cursor is tracked alongside yauzl so a refused record can be
// re-read raw, and so the records must fill exactly the directory the end record declares: a count
// that hides records, or records that spill past the directory, mean the end record lies.
import type { PositionalReader } from './archive-reader.js';
import type { Entry, ZipFile } from 'yauzl';
import type { ArchiveEnd } from './read-archive-end.js';
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected } from './archive-rejected.js';
import { classifyCentralRecord } from './classify-central-record.js';
import { describeEntry } from './describe-entry.js';
import { CENTRAL_HEADER_SIZE } from './zip-format.js';

export async function readCentralDirectory(zip: ZipFile, handle: PositionalReader, end: ArchiveEnd): Promise<ArchiveEntry[]> {
  if (zip.entryCount !== end.entryCount) throw new ArchiveRejected('fake-eocd');
  const directoryEnd = end.directoryOffset + end.directorySize;
  const entries: ArchiveEntry[] = [];
  let cursor = end.directoryOffset;
  for (;;) {
    let entry: Entry | null;
    try {
      entry = await nextEntry(zip);
    } catch (error) {
      throw new ArchiveRejected(await classifyCentralRecord(handle, cursor, directoryEnd), { cause: error });
    }
    if (entry === null) break;
    cursor += CENTRAL_HEADER_SIZE + entry.fileNameLength + entry.extraFieldLength + entry.fileCommentLength;
    if (cursor > directoryEnd) throw new ArchiveRejected('fake-eocd');
    entries.push(describeEntry(entry, entries.length));
  }
  if (cursor !== directoryEnd) throw new ArchiveRejected('fake-eocd');
  return entries;
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry): void => {
      settle();
      resolve(entry);
    };
    const onEnd = (): void => {
      settle();
      resolve(null);
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}
