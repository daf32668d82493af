// Reads one enumerated dataset file as UTF-8 text. MaxDatasetBytes is checked on the directory entry
// BEFORE the file is opened, then again on the open handle and while reading, so a file swapped or
// grown in between can never be read past the cap. Symlinks are not followed.
import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import type { ProblemError } from '../../platform/problems/index.js';
import { ceilingBreached, datasetNotFound } from '../problems.js';
import type { DatasetFile } from './list-dataset-files.js';
import { DatasetInvalid } from './dataset-invalid.js';

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const CHUNK_BYTES = 64 * 1024;

function tooLarge(file: DatasetFile, maxBytes: number): ProblemError {
  return ceilingBreached(`Dataset '${file.fileName}' is larger than Evaluation:MaxDatasetBytes (${maxBytes} bytes).`);
}

export async function readDatasetText(file: DatasetFile, maxBytes: number): Promise<string> {
  const entry = await lstat(file.path).catch(() => null);
  if (entry === null || !entry.isFile()) throw datasetNotFound();
  if (entry.size > maxBytes) throw tooLarge(file, maxBytes);

  const handle = await open(file.path, constants.O_RDONLY | NO_FOLLOW).catch(() => null);
  if (handle === null) throw datasetNotFound();
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw datasetNotFound();
    if (opened.size > maxBytes) throw tooLarge(file, maxBytes);
    const bytes = await readAtMost(handle, maxBytes + 1);
    if (bytes.length > maxBytes) throw tooLarge(file, maxBytes);
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new DatasetInvalid(file.fileName, null, 'is not valid UTF-8');
    }
  } finally {
    await handle.close();
  }
}

/** Reads until end of file or `limit` bytes, whichever comes first. */
async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}
