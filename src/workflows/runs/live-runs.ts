// Which runs are live (Queued, Running, Blocked): at most one per workflow, at most
// MaxActiveRunsPerOwner per owner. In-process and synchronous, so check-and-hold cannot race.

export type HoldResult = 'held' | 'workflow-busy' | 'owner-cap';

export class LiveRuns {
  readonly #byWorkflow = new Map<string, string>();
  readonly #countByOwner = new Map<string, number>();
  readonly #maxPerOwner: number;

  constructor(maxPerOwner: number) {
    this.#maxPerOwner = maxPerOwner;
  }

  tryHold(ownerId: string, workflowId: string, jobId: string): HoldResult {
    const key = workflowKey(ownerId, workflowId);
    if (this.#byWorkflow.has(key)) return 'workflow-busy';
    const count = this.#countByOwner.get(ownerId) ?? 0;
    if (count >= this.#maxPerOwner) return 'owner-cap';
    this.#byWorkflow.set(key, jobId);
    this.#countByOwner.set(ownerId, count + 1);
    return 'held';
  }

  /** Releases the hold of this job (a no-op when it holds nothing). */
  release(ownerId: string, workflowId: string, jobId: string): void {
    const key = workflowKey(ownerId, workflowId);
    if (this.#byWorkflow.get(key) !== jobId) return;
    this.#byWorkflow.delete(key);
    const count = (this.#countByOwner.get(ownerId) ?? 1) - 1;
    if (count > 0) this.#countByOwner.set(ownerId, count);
    else this.#countByOwner.delete(ownerId);
  }

  hasLiveRun(ownerId: string, workflowId: string): boolean {
    return this.#byWorkflow.has(workflowKey(ownerId, workflowId));
  }
}

function workflowKey(ownerId: string, workflowId: string): string {
  return `${ownerId}\u0000${workflowId}`;
}
