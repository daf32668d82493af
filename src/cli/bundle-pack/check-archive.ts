// Checks a packed archive exactly as the server would: stageArchive with the server's default limits
// into a throwaway staging root, which is removed again whatever happens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stageArchive, type ArchiveLimits } from '../../bundles/archive/index.js';
import type { BundleManifest, ManifestLog } from '../../agent/index.js';

/** SPEC.md's defaults for MaxArchiveBytes, MaxEntryCount, MaxTotalUncompressedBytes, MaxCompressionRatio. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = Object.freeze({
  maxArchiveBytes: 10 * 1024 * 1024,
  maxEntryCount: 2000,
  maxTotalUncompressedBytes: 50 * 1024 * 1024,
  maxCompressionRatio: 100,
});

export async function checkArchive(zipPath: string, log: ManifestLog, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<BundleManifest> {
  const stagingRoot = await mkdtemp(join(tmpdir(), 'portcullis-pack-check-'));
  try {
    const staged = await stageArchive({ zipPath, stagingRoot, uploadName: basename(zipPath), log }, limits);
    return staged.manifest;
  } finally {
    await rm(stagingRoot, { recursive: true, force: true });
  }
}
