// Eval runs in the storage port: the run record (owned: foreign ≡ unknown) with its judged cases as
// checkpoint items while live; once finished, the summary stays on the record (kept SUMMARY_KEEP_MS)
// and the details are filed as a second record reclaimed RunRecordTtl after the run finished. With
// Evaluation:ReportsRoot every finished report is also written there as JSON, so a lookup that misses
// the storage (a Memory host restarted) still finds it.
import type { Clock } from '../../platform/clock/index.js';
import type { Owner } from '../../platform/ownership/index.js';
import { compareNewestFirst, decodeCursor, encodeCursor, type InsertResult, type RecordKey, type RecordPatch, type Storage, type StoredRecord } from '../../platform/storage/index.js';
import type { EvalRunData, FiledRun, FinishedStatus, RunDetails } from '../eval-run.js';
import type { CaseResult } from '../runner/case-execution.js';
import { ReportFiles } from './report-files.js';

export const RUN_COLLECTION = 'eval-run';
const DETAILS_COLLECTION = 'eval-details';
export const LIVE_STATES: readonly string[] = ['Queued', 'Running'];
/** How long a finished run's summary stays pollable (its details go after RunRecordTtl). */
export const SUMMARY_KEEP_MS = 30 * 24 * 3600 * 1000;

export function evalRunKey(owner: Owner, jobId: string): RecordKey {
  return { collection: RUN_COLLECTION, ownerId: owner.ownerId, id: jobId };
}

export interface FiledLookup {
  readonly run: FiledRun;
  /** Undefined once reclaimed. */
  readonly details: RunDetails | undefined;
}

export interface EvalStoreOptions {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly reclaimAfterMs: number;
  readonly reportsRoot: string | null;
  readonly log: { warn(details: object, message: string): void };
}

export function filedRun(data: EvalRunData & { status: FinishedStatus }): FiledRun {
  return {
    jobId: data.jobId,
    ownerId: data.ownerId,
    status: data.status,
    createdAt: data.createdAt,
    startedAt: data.startedAt,
    completedAt: data.completedAt ?? data.createdAt,
    outcome: data.outcome,
  };
}

export class EvalStore {
  readonly #options: EvalStoreOptions;
  readonly #files: ReportFiles | null;

  constructor(options: EvalStoreOptions) {
    this.#options = options;
    this.#files = options.reportsRoot === null ? null : new ReportFiles(options.reportsRoot);
  }

  admit(run: EvalRunData, maxActivePerOwner: number, lease: { readonly holder: string; readonly expiresAt: number }): Promise<InsertResult<EvalRunData>> {
    return this.#options.storage.records.insert<EvalRunData>(
      { ...evalRunKey(run, run.jobId), state: run.status, createdAt: run.createdAt, lease, data: run },
      { ownerCap: { max: maxActivePerOwner, states: LIVE_STATES } },
    );
  }

  record(owner: Owner, jobId: string): Promise<StoredRecord<EvalRunData> | undefined> {
    return this.#options.storage.records.get<EvalRunData>(evalRunKey(owner, jobId));
  }

  /** The judged cases of a live run, by execution index. */
  async judged(key: RecordKey): Promise<Map<number, CaseResult>> {
    return new Map((await this.#options.storage.journal.items<CaseResult>(key)).map((item) => [Number(item.key), item.data]));
  }

  /**
   * Files a finished run: the record keeps its summary (written by `commit`, the run engine's guarded
   * final write), the details go beside it until reclaimed, and (when configured) the whole document
   * is written under ReportsRoot. False when the guard refused (the run was no longer live, or another
   * instance owns it).
   */
  async file(run: EvalRunData & { status: FinishedStatus }, details: RunDetails, commit: (patch: RecordPatch<EvalRunData>) => Promise<boolean>): Promise<boolean> {
    const { storage, clock } = this.#options;
    const now = clock.now();
    const completedAt = run.completedAt ?? now;
    const remaining = completedAt + this.#options.reclaimAfterMs - now;
    // Written before the record says the run finished, so a finished poll always has its file.
    if (this.#files !== null) {
      try {
        await this.#files.write(filedRun(run), details);
      } catch (error) {
        this.#options.log.warn({ err: error, jobId: run.jobId }, 'An eval report could not be written to Evaluation:ReportsRoot.');
      }
    }
    if (remaining > 0) {
      await storage.records.put<RunDetails>({ collection: DETAILS_COLLECTION, ownerId: run.ownerId, id: run.jobId, createdAt: run.createdAt, expiresAt: now + remaining, data: details });
    }
    const updated = await commit({ state: run.status, data: { ...run, submission: null }, lease: null, expiresAt: now + SUMMARY_KEEP_MS });
    if (!updated) {
      await storage.records.delete({ collection: DETAILS_COLLECTION, ownerId: run.ownerId, id: run.jobId });
      return false;
    }
    return true;
  }

  /** A finished run, from the storage or else from ReportsRoot. */
  async find(owner: Owner, jobId: string): Promise<FiledLookup | undefined> {
    const record = await this.record(owner, jobId);
    if (record !== undefined) {
      const data = record.data;
      if (data.status === 'Queued' || data.status === 'Running') return undefined;
      const details = await this.#options.storage.records.get<RunDetails>({ collection: DETAILS_COLLECTION, ownerId: owner.ownerId, id: jobId });
      return { run: filedRun({ ...data, status: data.status }), details: details?.data };
    }
    const document = await this.#files?.read(owner.ownerId, jobId);
    if (document === undefined) return undefined;
    const reclaimed = document.run.completedAt + this.#options.reclaimAfterMs <= this.#options.clock.now();
    return { run: document.run, details: reclaimed ? undefined : document.details };
  }

  /**
   * The caller's runs, newest first: live ones as they stand, finished ones with their details until
   * reclaimed; with ReportsRoot, the runs kept there that the storage no longer holds (a Memory host
   * restarted) are merged in, in the same (createdAt, jobId) order the storage's cursor follows.
   */
  async list(
    owner: Owner,
    page: { readonly limit: number; readonly cursor: string | null },
  ): Promise<{ runs: Array<{ live: EvalRunData } | FiledLookup>; nextCursor: string | null }> {
    const found = await this.#options.storage.records.list<EvalRunData>(RUN_COLLECTION, owner.ownerId, page);
    const stored = await Promise.all(
      found.records.map(async ({ data }): Promise<{ live: EvalRunData } | FiledLookup> => {
        if (data.status === 'Queued' || data.status === 'Running') return { live: data };
        const details = await this.#options.storage.records.get<RunDetails>({ collection: DETAILS_COLLECTION, ownerId: owner.ownerId, id: data.jobId });
        return { run: filedRun({ ...data, status: data.status }), details: details?.data };
      }),
    );
    if (this.#files === null) return { runs: stored, nextCursor: found.nextCursor };
    return this.#withKept(owner, page, stored, found.nextCursor);
  }

  async #withKept(
    owner: Owner,
    page: { readonly limit: number; readonly cursor: string | null },
    stored: Array<{ live: EvalRunData } | FiledLookup>,
    storedNext: string | null,
  ): Promise<{ runs: Array<{ live: EvalRunData } | FiledLookup>; nextCursor: string | null }> {
    const position = (entry: { live: EvalRunData } | FiledLookup) => {
      const run = 'live' in entry ? entry.live : entry.run;
      return { createdAt: run.createdAt, id: run.jobId };
    };
    const after = page.cursor === null ? null : decodeCursor(page.cursor);
    const last = stored.at(-1);
    // Every stored run up to the storage page's last one is on that page: a kept run in that stretch
    // that is not on it is one the storage no longer holds. Beyond it, the next page decides.
    const bound = storedNext === null || last === undefined ? null : position(last);
    const onPage = new Set(stored.map((entry) => position(entry).id));
    const kept = (await this.#files!.runs(owner.ownerId))
      .map((run) => ({ createdAt: run.createdAt, id: run.jobId }))
      .filter((at) => after === null || compareNewestFirst(after, at) < 0)
      .sort(compareNewestFirst);
    const within = kept.filter((at) => bound === null || compareNewestFirst(at, bound) <= 0);
    const missing = await Promise.all(within.filter((at) => !onPage.has(at.id)).map((at) => this.find(owner, at.id)));
    const merged = [...stored, ...missing.filter((entry) => entry !== undefined)].sort((a, b) => compareNewestFirst(position(a), position(b)));
    const runs = merged.slice(0, page.limit);
    const more = merged.length > page.limit || storedNext !== null || within.length < kept.length;
    const lastShown = runs.at(-1);
    return { runs, nextCursor: more && lastShown !== undefined ? encodeCursor(position(lastShown)) : null };
  }

  /** Drops reclaimed details and expired summaries (with any checkpoints left). */
  async sweep(): Promise<void> {
    await this.#options.storage.records.sweep(DETAILS_COLLECTION);
    await this.#options.storage.records.sweep(RUN_COLLECTION);
  }
}
