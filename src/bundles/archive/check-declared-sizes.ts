// The first of the two decompression-bomb checks: the sizes the central directory declares, before a
// byte is inflated. Any entry or the total past the expansion limit is refused. The compression ratio
// applies past the 1 MiB floor (SPEC.md) at both scopes: an entry expanding past 1 MiB is judged on
// its own ratio, and an archive expanding past 1 MiB on its overall ratio. (Gating both on the total
// alone would make the overall check dead: Σu/Σc never exceeds the largest per-entry ratio. This way
// one big bomb hidden beside incompressible data and many small bombs are both caught, and a small
// repetitive file in a large bundle is not a false positive.) Zero stored bytes expanding is infinite.
import { COMPRESSION_RATIO_FLOOR_BYTES, type ArchiveLimits } from './archive-limits.js';
import type { ArchiveEntry } from './archive-entry.js';
import { ArchiveRejected } from './archive-rejected.js';

const ratio = (expanded: number, stored: number): number => (expanded === 0 ? 0 : expanded / stored);

export function checkDeclaredSizes(entries: readonly ArchiveEntry[], limits: ArchiveLimits): void {
  let expanded = 0;
  let stored = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize > limits.maxTotalUncompressedBytes) throw new ArchiveRejected('expands-too-far');
    expanded += entry.uncompressedSize;
    stored += entry.compressedSize;
  }
  if (expanded > limits.maxTotalUncompressedBytes) throw new ArchiveRejected('expands-too-far');
  for (const entry of entries) {
    if (entry.uncompressedSize <= COMPRESSION_RATIO_FLOOR_BYTES) continue;
    if (ratio(entry.uncompressedSize, entry.compressedSize) > limits.maxCompressionRatio) throw new ArchiveRejected('compression-ratio');
  }
  if (expanded > COMPRESSION_RATIO_FLOOR_BYTES && ratio(expanded, stored) > limits.maxCompressionRatio) {
    throw new ArchiveRejected('compression-ratio');
  }
}
