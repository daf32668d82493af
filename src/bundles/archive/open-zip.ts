// Opens the upload with yauzl the one way staging uses it: lazy entries, names decoded (and checked
// strictly, backslashes included), entry sizes validated, reading through the staging ArchiveReader
// (cached blocks) rather than a file descriptor of its own. A standing error listener keeps a late
// reader error from crashing the process. Closing the zip leaves the file to its owner.
import { Readable } from 'node:stream';
import yauzl, { type ZipFile } from 'yauzl';
import type { ArchiveReader } from './archive-reader.js';

class CachedRandomAccessReader extends yauzl.RandomAccessReader {
  readonly #archive: ArchiveReader;

  constructor(archive: ArchiveReader) {
    super();
    this.#archive = archive;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.#archive.range(start, end), { objectMode: false });
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    this.#archive.read(buffer, offset, length, position).then(
      ({ bytesRead }) => callback(bytesRead < length ? new Error('unexpected EOF') : null),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

export function openZip(archive: ArchiveReader): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    const options = { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true };
    yauzl.fromRandomAccessReader(new CachedRandomAccessReader(archive), archive.size, options, (error, zip) => {
      if (error !== null) return reject(error);
      zip.on('error', () => undefined);
      resolve(zip);
    });
  });
}
