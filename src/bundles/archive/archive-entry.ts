// One central-directory entry as the guards see it: the decoded name split into segments, the kind its
// attributes declare, sizes after zip64 overrides. The yauzl entry rides along so the one parse of the
// central directory serves extraction as well as validation.
import type { Entry } from 'yauzl';

export type ArchiveEntryKind = 'file' | 'directory' | 'symlink';

export interface ArchiveEntry {
  readonly index: number;
  /** The decoded name; directories keep their trailing `/`. */
  readonly name: string;
  /** The name without a trailing `/`, segments joined by `/`. */
  readonly path: string;
  readonly segments: readonly string[];
  readonly kind: ArchiveEntryKind;
  readonly flags: number;
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
  readonly rawName: Buffer;
  readonly unicodePathField: Buffer | null;
  readonly source: Entry;
}
