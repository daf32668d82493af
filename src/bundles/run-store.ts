// Where bundle runs live: owned by the starting caller and keyed by (handle, jobId), so a run read by
// another caller or under another handle is the same miss as one that never existed. Live runs are
// kept until they end; a terminal run stays for RunRecordTtl, even after its handle is gone.
import type { Clock } from '../platform/clock/index.js';
import { OwnedStore, type Owner } from '../platform/ownership/index.js';
import { MemoryTtlStore, type TtlStore } from '../platform/store/index.js';
import { isTerminal, type BundleRunRecord } from './run-record.js';

/** A live run is never evicted by age: it ends (or its reservation is reclaimed) first. */
const LIVE_RUN_TTL_MS = 365 * 24 * 60 * 60 * 1000;

export interface RunStoreOptions {
  readonly clock: Clock;
  readonly runRecordTtlMs: number;
  /** Defaults to an in-memory store. */
  readonly store?: TtlStore<BundleRunRecord>;
}

/** The (handle, jobId) pair as one unambiguous key, whatever characters the path carried. */
function runId(handle: string, jobId: string): string {
  return JSON.stringify([handle, jobId]);
}

export class RunStore {
  readonly #runs: OwnedStore<BundleRunRecord>;
  readonly #terminalTtlMs: number;

  constructor(options: RunStoreOptions) {
    this.#runs = new OwnedStore(options.store ?? new MemoryTtlStore({ clock: options.clock }));
    this.#terminalTtlMs = options.runRecordTtlMs;
  }

  find(owner: Owner, handle: string, jobId: string): Promise<BundleRunRecord | undefined> {
    return this.#runs.find(owner, runId(handle, jobId));
  }

  /** Stores a new or changed run; a terminal one from now on expires after RunRecordTtl. */
  save(run: BundleRunRecord): Promise<void> {
    const ttl = isTerminal(run) ? this.#terminalTtlMs : LIVE_RUN_TTL_MS;
    return this.#runs.put({ ownerId: run.ownerId }, runId(run.handle, run.jobId), run, ttl);
  }

  /** Drops expired terminal runs. */
  async sweep(): Promise<number> {
    return (await this.#runs.sweep()).length;
  }
}
