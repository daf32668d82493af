// The bundle limits staging enforces (SPEC.md "Limits"); every maximum is inclusive.
export interface ArchiveLimits {
  /** Largest upload accepted, in bytes. */
  readonly maxArchiveBytes: number;
  /** Most central-directory entries (files, directories and links alike). */
  readonly maxEntryCount: number;
  /** Largest total expansion, declared and actually written. */
  readonly maxTotalUncompressedBytes: number;
  /** Largest expansion factor of an entry or the whole archive, once that expands past 1 MiB. */
  readonly maxCompressionRatio: number;
}

/** The compression ratio applies only past 1 MiB of expansion (SPEC.md), per entry and per archive. */
export const COMPRESSION_RATIO_FLOOR_BYTES = 1024 * 1024;
