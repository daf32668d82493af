// Reads the manifest of a freshly staged bundle, turning a refused AGENT.md into the archive guard
// of the same name.
import { ManifestRejected, readBundleManifest, type BundleManifest, type ManifestLog } from '../../agent/index.js';
import type { ArchiveGuard } from './archive-guard.js';
import { ArchiveRejected } from './archive-rejected.js';

export async function readStagedManifest(dir: string, uploadName: string | undefined, log: ManifestLog | undefined): Promise<BundleManifest> {
  try {
    return await readBundleManifest(dir, uploadName, log);
  } catch (error) {
    if (!(error instanceof ManifestRejected)) throw error;
    const guard: ArchiveGuard = error.reason;
    throw new ArchiveRejected(guard, { cause: error, ...(error.hint !== undefined ? { hint: error.hint } : {}) });
  }
}
