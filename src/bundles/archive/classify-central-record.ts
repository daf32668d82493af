// When yauzl refuses a central-directory record it says why in prose. The guard must not depend on
// library text, so this re-reads the raw record at the cursor and asks the same questions the guards
// ask, in the same order, returning the first one that fails (malformed-archive when none does).
import type { PositionalReader } from './archive-reader.js';
import yauzl from 'yauzl';
import type { ArchiveGuard } from './archive-guard.js';
import { checkEntryFlags } from './check-entry-flags.js';
import { checkEntryName } from './check-entry-name.js';
import { checkUnicodePath } from './check-unicode-path.js';
import { readAt } from './read-at.js';
import { CENTRAL_HEADER_SIGNATURE, CENTRAL_HEADER_SIZE, METHOD_STORED } from './zip-format.js';

export async function classifyCentralRecord(handle: PositionalReader, cursor: number, directoryEnd: number): Promise<ArchiveGuard> {
  // The end record promised more records than the directory holds.
  if (cursor + CENTRAL_HEADER_SIZE > directoryEnd) return 'fake-eocd';
  const header = await readAt(handle, cursor, CENTRAL_HEADER_SIZE);
  if (header.length < CENTRAL_HEADER_SIZE || header.readUInt32LE(0) !== CENTRAL_HEADER_SIGNATURE) return 'malformed-archive';
  const flags = header.readUInt16LE(8);
  const method = header.readUInt16LE(10);
  const flagGuard = checkEntryFlags(flags, method);
  if (flagGuard !== null) return flagGuard;
  const nameLength = header.readUInt16LE(28);
  const variable = await readAt(handle, cursor + CENTRAL_HEADER_SIZE, nameLength + header.readUInt16LE(30));
  const rawName = variable.subarray(0, nameLength);
  let extraFields: yauzl.ExtraField[];
  try {
    extraFields = yauzl.parseExtraFields(variable.subarray(nameLength));
  } catch {
    return 'malformed-archive';
  }
  const unicodeGuard = checkUnicodePath(rawName, flags, extraFields);
  if (unicodeGuard !== null) return unicodeGuard;
  const nameGuard = checkEntryName(yauzl.getFileNameLowLevel(flags, rawName, extraFields, true));
  if (nameGuard !== null) return nameGuard;
  if (method === METHOD_STORED && header.readUInt32LE(20) !== header.readUInt32LE(24)) return 'size-mismatch';
  return 'malformed-archive';
}
