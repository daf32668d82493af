// The host's eval store: every finished run is filed in memory and, when Evaluation:ReportsRoot is set,
// written there as JSON, so reports survive a restart (a lookup that misses memory reads the file).
// The summary (status, counts, verdict, duration, cost) is kept; the submission — dataset names, the
// report and the per-case results behind report.xml — is reclaimed RunRecordTtl after the run finished,
// from memory by TTL and from a file's answer by its completion time. Files keep the full document.
import type { Clock } from '../../platform/clock/index.js';
import { OwnedStore, type Owner } from '../../platform/ownership/index.js';
import { MemoryTtlStore } from '../../platform/store/index.js';
import type { FiledRun, RunDetails } from '../eval-run.js';
import { ReportFiles } from './report-files.js';

/** Summaries held in memory; the oldest are forgotten first (they stay readable from ReportsRoot). */
export const MAX_SUMMARIES_IN_MEMORY = 10_000;
const KEEP_MS = 100 * 365 * 24 * 3600 * 1000;

export interface FiledLookup {
  readonly run: FiledRun;
  /** Undefined once reclaimed. */
  readonly details: RunDetails | undefined;
}

export interface EvalStoreOptions {
  readonly clock: Clock;
  readonly reclaimAfterMs: number;
  readonly reportsRoot: string | null;
  readonly log: { warn(details: object, message: string): void };
}

export class EvalStore {
  readonly #options: EvalStoreOptions;
  readonly #summaries: OwnedStore<FiledRun>;
  readonly #details: OwnedStore<RunDetails>;
  readonly #detailsStore: MemoryTtlStore<RunDetails>;
  readonly #files: ReportFiles | null;

  constructor(options: EvalStoreOptions) {
    this.#options = options;
    this.#summaries = new OwnedStore(new MemoryTtlStore<FiledRun>({ clock: options.clock, maxEntries: MAX_SUMMARIES_IN_MEMORY }));
    this.#detailsStore = new MemoryTtlStore<RunDetails>({ clock: options.clock });
    this.#details = new OwnedStore(this.#detailsStore);
    this.#files = options.reportsRoot === null ? null : new ReportFiles(options.reportsRoot);
  }

  /** Files a finished run in memory, then (when configured) on disk; a failed write is logged, not fatal. */
  async file(run: FiledRun, details: RunDetails): Promise<void> {
    await this.#remember(run, details);
    if (this.#files === null) return;
    try {
      await this.#files.write(run, details);
    } catch (error) {
      this.#options.log.warn({ err: error, jobId: run.jobId }, 'An eval report could not be written to Evaluation:ReportsRoot.');
    }
  }

  async find(owner: Owner, jobId: string): Promise<FiledLookup | undefined> {
    const run = await this.#summaries.find(owner, jobId);
    if (run !== undefined) return { run, details: await this.#details.find(owner, jobId) };
    const document = await this.#files?.read(owner.ownerId, jobId);
    if (document === undefined) return undefined;
    await this.#remember(document.run, document.details);
    return { run: document.run, details: await this.#details.find(owner, jobId) };
  }

  /** Frees the memory of reclaimed submissions. */
  async sweep(): Promise<void> {
    await this.#detailsStore.sweep();
  }

  async #remember(run: FiledRun, details: RunDetails): Promise<void> {
    const owner = { ownerId: run.ownerId };
    await this.#summaries.put(owner, run.jobId, run, KEEP_MS);
    const remaining = run.completedAt + this.#options.reclaimAfterMs - this.#options.clock.now();
    if (remaining > 0) await this.#details.put(owner, run.jobId, details, remaining);
  }
}
