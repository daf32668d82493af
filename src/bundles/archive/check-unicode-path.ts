// The Info-ZIP Unicode Path extra field (0x7075) gives a second name for an entry. yauzl applies it
// when its version is 1 and its CRC matches the header name, so two extractors can disagree on what an
// entry is called. Decision: a 0x7075 field is accepted only when it is one that yauzl applies AND
// it cannot disagree with the header name: a UTF-8-flagged or plain-ASCII header name must equal it
// byte for byte; only a legacy-charset header name (the field's purpose) may differ. A UTF-8-flagged
// name without the field must itself be valid UTF-8.
import { isUtf8 } from 'node:buffer';
import type { ExtraField } from 'yauzl';
import type { ArchiveGuard } from './archive-guard.js';
import { crc32 } from 'node:zlib';
import { EXTRA_UNICODE_PATH, FLAG_UTF8 } from './zip-format.js';

const isPrintableAscii = (bytes: Buffer): boolean => bytes.every((byte) => byte >= 0x20 && byte <= 0x7e);

export function checkUnicodePath(rawName: Buffer, flags: number, extraFields: readonly ExtraField[]): ArchiveGuard | null {
  const fields = extraFields.filter((field) => field.id === EXTRA_UNICODE_PATH);
  const [field] = fields;
  if (field === undefined) return (flags & FLAG_UTF8) !== 0 && !isUtf8(rawName) ? 'invalid-name' : null;
  if (fields.length > 1 || field.data.length < 6 || field.data[0] !== 1) return 'unicode-path-mismatch';
  if (field.data.readUInt32LE(1) !== crc32(rawName)) return 'unicode-path-mismatch';
  const unicodeName = field.data.subarray(5);
  if (!isUtf8(unicodeName)) return 'unicode-path-mismatch';
  const headerIsUnambiguous = (flags & FLAG_UTF8) !== 0 || isPrintableAscii(rawName);
  if (headerIsUnambiguous && !rawName.equals(unicodeName)) return 'unicode-path-mismatch';
  return null;
}

/** The raw 0x7075 field data, for comparing a local header's copy with the central one. */
export function unicodePathData(extraFields: readonly ExtraField[]): Buffer | null {
  return extraFields.find((field) => field.id === EXTRA_UNICODE_PATH)?.data ?? null;
}
