// Queued and executing runs, owned by construction (OwnedStore: another caller's id is the same miss
// as an unknown one), with the per-owner count that Evaluation:MaxActiveRunsPerOwner is checked against.
import type { Clock } from '../../platform/clock/index.js';
import { OwnedStore, type Owner } from '../../platform/ownership/index.js';
import { MemoryTtlStore } from '../../platform/store/index.js';
import type { ActiveRun } from '../eval-run.js';

/** Active runs never expire on their own; they leave when they finish or are cancelled. */
const UNTIL_FINISHED_MS = 100 * 365 * 24 * 3600 * 1000;

export class ActiveRuns {
  readonly #runs: OwnedStore<ActiveRun>;
  readonly #perOwner = new Map<string, number>();

  constructor(clock: Clock) {
    this.#runs = new OwnedStore(new MemoryTtlStore<ActiveRun>({ clock }));
  }

  countFor(ownerId: string): number {
    return this.#perOwner.get(ownerId) ?? 0;
  }

  /** Counts the run against its owner synchronously, so two concurrent starts can never both pass the cap. */
  add(run: ActiveRun): Promise<void> {
    this.#perOwner.set(run.ownerId, this.countFor(run.ownerId) + 1);
    return this.#runs.put({ ownerId: run.ownerId }, run.jobId, run, UNTIL_FINISHED_MS);
  }

  find(owner: Owner, jobId: string): Promise<ActiveRun | undefined> {
    return this.#runs.find(owner, jobId);
  }

  async remove(run: ActiveRun): Promise<void> {
    if (await this.#runs.remove({ ownerId: run.ownerId }, run.jobId)) {
      const left = this.countFor(run.ownerId) - 1;
      if (left > 0) this.#perOwner.set(run.ownerId, left);
      else this.#perOwner.delete(run.ownerId);
    }
  }
}
