// What a finished bundle run left in storage, for the eval family (DESIGN §19 "A run becomes a case"):
// its record — the bundle's id and the user messages its turns received — and its frames as the run's
// journal holds them, already redacted and bounded by the frame ceiling. Everything is read from
// storage, so any instance answers for a run executed on another. Owned by the caller and scoped to
// the handle it was started on, so a foreign run, or one named under another handle, is unknown.
// It does not need the handle to be alive: a finished run stays readable for RunRecordTtl, as its poll does.
import type { Owner } from '../../platform/ownership/index.js';
import type { BundleFrame } from './bundle-frame.js';
import { bundleRunKey, type BundleRunStore } from './bundle-run-store.js';
import { isTerminal } from './run-record.js';

/** Journal events read per storage round trip. */
const PAGE = 500;

export interface FinishedRun {
  readonly jobId: string;
  readonly handle: string;
  readonly status: 'Succeeded' | 'Failed';
  /** Absent on runs stored before it was kept. */
  readonly agent?: string;
  readonly userMessages?: readonly string[];
  /** The run's frames in journal order: every execution of it, a parked one's continuation included. */
  frames(): AsyncGenerator<BundleFrame>;
}

export type FinishedRunLookup = { readonly found: 'unknown' } | { readonly found: 'live' } | { readonly found: 'finished'; readonly run: FinishedRun };

export class FinishedBundleRuns {
  readonly #runs: BundleRunStore;
  readonly #enabled: boolean;

  constructor(options: { readonly runs: BundleRunStore; readonly enabled: boolean }) {
    this.#runs = options.runs;
    this.#enabled = options.enabled;
  }

  /** BundleExecution:Enabled: a run is read only where bundles run. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** The caller's run under `handle`: unknown (or foreign), still live (Queued, Running or parked), or finished. */
  async find(owner: Owner, handle: string, jobId: string): Promise<FinishedRunLookup> {
    const run = await this.#runs.find(owner, handle, jobId);
    if (run === undefined) return { found: 'unknown' };
    if (!isTerminal(run)) return { found: 'live' };
    const { journal } = this.#runs;
    const key = bundleRunKey(run);
    return {
      found: 'finished',
      run: {
        jobId: run.jobId,
        handle: run.handle,
        status: run.status,
        ...(run.agent === undefined ? {} : { agent: run.agent }),
        ...(run.userMessages === undefined ? {} : { userMessages: run.userMessages }),
        frames: async function* () {
          for (let after = 0; ; ) {
            const page = await journal.events<BundleFrame>(key, after, PAGE);
            for (const entry of page) yield entry.event;
            if (page.length < PAGE) return;
            after = page.at(-1)!.seq;
          }
        },
      },
    };
  }
}
