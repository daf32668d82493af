// Stages archives on this instance: an upload as it arrives, or the kept archive of a handle registered
// through another instance (every guard runs again). Owns the staging root — it must not overlap the
// agent and skill discovery paths — and what of it this process must keep when leftovers are swept.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IdGenerator } from '../../platform/clock/index.js';
import { ProblemError } from '../../platform/problems/index.js';
import { checkStagingRoot, isArchiveRejected, stageArchive, type ArchiveLimits, type StagingWriter } from '../archive/index.js';
import type { ManifestLog } from '../../agent/index.js';
import { stagingRootOverlaps } from '../problems.js';
import type { BundleHandle } from './bundle-handle.js';
import { removeLeftovers } from './remove-leftovers.js';
import type { StagingLeases } from './staging-leases.js';
import { stagingPrefix } from './staging-names.js';
import { stagingRootOf } from './staging-root.js';

export interface StagedArchive {
  readonly dir: string;
  readonly manifest: BundleHandle['manifest'];
}

export interface BundleStagerOptions {
  readonly tempRoot: string;
  readonly limits: ArchiveLimits;
  /** Agent and skill discovery paths: the staging root must not overlap them. */
  readonly discoveryPaths: readonly string[];
  readonly staging: StagingLeases;
  readonly ids: IdGenerator;
  readonly log: ManifestLog;
  /** The thread that writes staged files (its owner closes it); without it they are written on the event loop. */
  readonly writer?: StagingWriter;
}

export class BundleStager {
  readonly #options: BundleStagerOptions;
  readonly #root: string;
  /** Archives being staged here: their directories exist before any handle holds them. */
  #staging = 0;

  constructor(options: BundleStagerOptions) {
    this.#options = options;
    this.#root = stagingRootOf(options.tempRoot);
  }

  /**
   * Receives an upload into a file of its own (`receive` writes it; resolves with the uploaded file
   * name, if any) and stages it; `keep` may read the upload's bytes before it is removed. An archive
   * guard's refusal is the 400 that names the guard.
   */
  async stageUpload<T>(receive: (target: string) => Promise<string | undefined>, keep: (staged: StagedArchive, bytes: () => Promise<Buffer>) => Promise<T>): Promise<T> {
    if (!checkStagingRoot(this.#root, this.#options.discoveryPaths)) throw stagingRootOverlaps();
    return this.#withUpload(async (upload) => {
      try {
        const uploadName = await receive(upload);
        const staged = await this.#stage(upload, uploadName);
        return await keep(staged, () => readFile(upload));
      } catch (error) {
        if (isArchiveRejected(error)) throw new ProblemError('validation-failed', error.detail, { cause: error });
        throw error;
      }
    });
  }

  /** Stages the kept archive of a handle registered through another instance; null when it cannot. */
  readonly restage = async (handle: BundleHandle, archive: Buffer): Promise<string | null> =>
    this.#withUpload(async (upload) => {
      try {
        await writeFile(upload, archive, { mode: 0o600 });
        return (await this.#stage(upload, `${handle.manifest.id}.zip`)).dir;
      } catch {
        return null;
      }
    });

  /** Removes staging folders this host created that no live handle owns (start-up and every sweep). */
  async removeLeftovers(): Promise<void> {
    const staging = this.#staging > 0;
    await removeLeftovers({ stagingRoot: this.#root, owned: (dir) => staging || this.#options.staging.owns(dir) });
  }

  async #withUpload<T>(work: (upload: string) => Promise<T>): Promise<T> {
    await mkdir(this.#root, { recursive: true, mode: 0o700 });
    const upload = join(this.#root, `${stagingPrefix('upload')}${this.#options.ids.opaque()}.zip`);
    this.#staging += 1;
    try {
      return await work(upload);
    } finally {
      this.#staging -= 1;
      await rm(upload, { force: true });
    }
  }

  #stage(zipPath: string, uploadName: string | undefined): Promise<StagedArchive> {
    const { log, writer, limits } = this.#options;
    return stageArchive({ zipPath, stagingRoot: this.#root, uploadName, dirPrefix: stagingPrefix('bundle'), log, writer }, limits);
  }
}
