// Reads one local file header raw: yauzl only uses it to find where the data starts, but the guards
// need its name, flags, method, checksum and sizes to compare with the central directory.
import type { PositionalReader } from './archive-reader.js';
import yauzl from 'yauzl';
import { ArchiveRejected } from './archive-rejected.js';
import { readAt } from './read-at.js';
import { readUInt64 } from './read-uint64.js';
import { EXTRA_ZIP64, LOCAL_HEADER_SIGNATURE, LOCAL_HEADER_SIZE, ZIP64_SENTINEL_32 } from './zip-format.js';

export interface LocalHeader {
  readonly flags: number;
  readonly method: number;
  readonly crc32: number;
  /** Sizes after zip64 overrides; null when a 0xFFFFFFFF size has no zip64 value behind it. */
  readonly sizes: { readonly compressed: number; readonly uncompressed: number } | null;
  readonly rawName: Buffer;
  readonly extraFields: readonly yauzl.ExtraField[];
  readonly dataStart: number;
}

export async function readLocalHeader(handle: PositionalReader, offset: number): Promise<LocalHeader> {
  const fixed = await readAt(handle, offset, LOCAL_HEADER_SIZE);
  if (fixed.length < LOCAL_HEADER_SIZE || fixed.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) throw new ArchiveRejected('header-mismatch');
  const nameLength = fixed.readUInt16LE(26);
  const extraLength = fixed.readUInt16LE(28);
  const variable = await readAt(handle, offset + LOCAL_HEADER_SIZE, nameLength + extraLength);
  if (variable.length < nameLength + extraLength) throw new ArchiveRejected('truncated');
  let extraFields: yauzl.ExtraField[];
  try {
    extraFields = yauzl.parseExtraFields(variable.subarray(nameLength));
  } catch (error) {
    throw new ArchiveRejected('header-mismatch', { cause: error });
  }
  return {
    flags: fixed.readUInt16LE(6),
    method: fixed.readUInt16LE(8),
    crc32: fixed.readUInt32LE(14),
    sizes: resolveSizes(fixed.readUInt32LE(18), fixed.readUInt32LE(22), extraFields),
    rawName: variable.subarray(0, nameLength),
    extraFields,
    dataStart: offset + LOCAL_HEADER_SIZE + nameLength + extraLength,
  };
}

function resolveSizes(compressed: number, uncompressed: number, extraFields: readonly yauzl.ExtraField[]): LocalHeader['sizes'] {
  if (compressed !== ZIP64_SENTINEL_32 && uncompressed !== ZIP64_SENTINEL_32) return { compressed, uncompressed };
  const zip64 = extraFields.find((field) => field.id === EXTRA_ZIP64)?.data;
  if (zip64 === undefined) return null;
  let cursor = 0;
  const next = (): number | null => {
    if (cursor + 8 > zip64.length) return null;
    cursor += 8;
    return readUInt64(zip64, cursor - 8);
  };
  const resolvedUncompressed = uncompressed === ZIP64_SENTINEL_32 ? next() : uncompressed;
  const resolvedCompressed = compressed === ZIP64_SENTINEL_32 ? next() : compressed;
  if (resolvedUncompressed === null || resolvedCompressed === null) return null;
  return { compressed: resolvedCompressed, uncompressed: resolvedUncompressed };
}
