// Opens the upload with yauzl the one way staging uses it: lazy entries, names decoded (and checked
// strictly, backslashes included), entry sizes validated, and the file kept open until we close it.
// A standing error listener keeps a late reader error from crashing the process.
import yauzl, { type ZipFile } from 'yauzl';

export function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (error, zip) => {
      if (error !== null) return reject(error);
      zip.on('error', () => undefined);
      resolve(zip);
    });
  });
}
