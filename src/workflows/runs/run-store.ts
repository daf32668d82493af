// Run records under their owner (foreign ≡ unknown by construction). A live run is kept for as long
// as it lives; a final one stays pollable for RunRecordTtl, then reads as absent and is swept.
import type { Clock } from '../../platform/clock/index.js';
import { OwnedStore, type Owner } from '../../platform/ownership/index.js';
import { MemoryTtlStore } from '../../platform/store/index.js';
import type { WorkflowRun } from './workflow-run.js';

/** Effectively "until it ends": a live run is re-stored with the record TTL once final. */
const LIVE_RUN_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export class RunStore {
  readonly #store: OwnedStore<WorkflowRun>;
  readonly #recordTtlMs: number;

  constructor(options: { readonly clock: Clock; readonly recordTtlMs: number }) {
    this.#store = new OwnedStore(new MemoryTtlStore<WorkflowRun>({ clock: options.clock }));
    this.#recordTtlMs = options.recordTtlMs;
  }

  find(owner: Owner, jobId: string): Promise<WorkflowRun | undefined> {
    return this.#store.find(owner, jobId);
  }

  putLive(run: WorkflowRun): Promise<void> {
    return this.#store.put({ ownerId: run.ownerId }, run.jobId, run, LIVE_RUN_TTL_MS);
  }

  /** Starts the final run's pollable lifetime. */
  putFinal(run: WorkflowRun): Promise<void> {
    return this.#store.put({ ownerId: run.ownerId }, run.jobId, run, this.#recordTtlMs);
  }

  sweep(): Promise<WorkflowRun[]> {
    return this.#store.sweep();
  }
}
