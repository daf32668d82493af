// Stages an uploaded bundle: every archive guard runs against the one central-directory parse, then
// the same entries are streamed into a fresh private directory and the manifest is read. Nothing is
// written until every guard that does not need entry data has passed, nothing is ever written outside
// the new directory, and on any failure that directory is removed completely before the error leaves.
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZipFile } from 'yauzl';
import type { BundleManifest, ManifestLog } from '../../agent/index.js';
import type { ArchiveLimits } from './archive-limits.js';
import { ArchiveReader } from './archive-reader.js';
import { ArchiveRejected } from './archive-rejected.js';
import { checkDeclaredSizes } from './check-declared-sizes.js';
import { checkEntryLayout } from './check-entry-layout.js';
import { checkManifestEntries } from './check-manifest-entries.js';
import { checkNameCollisions } from './check-name-collisions.js';
import { checkSymlinks } from './check-symlinks.js';
import type { ExpansionBudget } from './expansion-budget.js';
import { openZip } from './open-zip.js';
import { readArchiveEnd } from './read-archive-end.js';
import { readCentralDirectory } from './read-central-directory.js';
import { readStagedManifest } from './read-staged-manifest.js';
import { readSymlinkTargets } from './read-symlink-targets.js';
import type { StagedFileWriter } from './staging-writer.js';
import { writeStagingTree } from './write-staging-tree.js';

export interface StageArchiveInput {
  /** The uploaded file. */
  readonly zipPath: string;
  /** The staging root; a private `bundle-*` directory is created inside it (the root too, if missing). */
  readonly stagingRoot: string;
  /** The uploaded file name, the last fallback for the agent id. */
  readonly uploadName?: string;
  /** Receives warnings about skipped skills and plugins. */
  readonly log?: ManifestLog;
  /** Name prefix of the private directory (default `bundle-`). */
  readonly dirPrefix?: string;
  /** Writes the small files on a thread of its own (staging-writer.ts); without it they are written here. */
  readonly writer?: StagedFileWriter | undefined;
}

export interface StagedBundle {
  readonly dir: string;
  readonly manifest: BundleManifest;
  readonly entryCount: number;
  /** Bytes actually written, symlink targets included. */
  readonly uncompressedBytes: number;
}

export async function stageArchive(input: StageArchiveInput, limits: ArchiveLimits): Promise<StagedBundle> {
  const { size } = await stat(input.zipPath);
  if (size === 0) throw new ArchiveRejected('empty');
  if (size > limits.maxArchiveBytes) throw new ArchiveRejected('too-large');
  const handle = await open(input.zipPath, 'r');
  let zip: ZipFile | undefined;
  let dir: string | undefined;
  try {
    const archive = new ArchiveReader(handle, size);
    const end = await readArchiveEnd(archive, size, limits.maxEntryCount);
    zip = await openZip(archive).catch((error: unknown) => {
      throw new ArchiveRejected('malformed-archive', { cause: error });
    });
    const entries = await readCentralDirectory(zip, archive, end);
    checkNameCollisions(entries);
    const dataStarts = await checkEntryLayout(archive, entries, end);
    checkDeclaredSizes(entries, limits);
    checkManifestEntries(entries);
    const budget: ExpansionBudget = { written: 0, max: limits.maxTotalUncompressedBytes };
    const symlinkTargets = checkSymlinks(entries, await readSymlinkTargets(archive, entries, dataStarts, budget));
    await mkdir(input.stagingRoot, { recursive: true, mode: 0o700 });
    dir = await mkdtemp(join(input.stagingRoot, input.dirPrefix ?? 'bundle-'));
    await writeStagingTree(archive, dir, entries, dataStarts, symlinkTargets, budget, input.writer);
    const manifest = await readStagedManifest(dir, input.uploadName, input.log);
    return { dir, manifest, entryCount: entries.length, uncompressedBytes: budget.written };
  } catch (error) {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  } finally {
    zip?.close();
    await handle.close();
  }
}
