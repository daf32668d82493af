// The runs this process has not finished yet: the live record, the cancel switch, the frame log and
// the caller's MaxActiveBundleRunsPerOwner slot. Whoever takes a run — the dispatcher, the one stream
// allowed to drive it, or the reaper of an unopened reservation — claims it synchronously, so exactly
// one of them ever does.
import { ConcurrencySlots, type SlotLease } from '../platform/rate-limit/index.js';
import type { BundleFrame } from './bundle-frame.js';
import type { LiveRunRecord, QueuedRun } from './run-record.js';
import { RunEventLog } from './run-event-log.js';

export interface ActiveRun {
  /** Queued until claimed, then Running; replaced on every transition. */
  record: LiveRunRecord;
  readonly controller: AbortController;
  readonly log: RunEventLog<BundleFrame>;
  claimed: boolean;
  readonly slot: SlotLease;
}

function keyOf(ownerId: string, handle: string, jobId: string): string {
  return JSON.stringify([ownerId, handle, jobId]);
}

export class ActiveRuns {
  readonly #runs = new Map<string, ActiveRun>();
  readonly #perOwner: ConcurrencySlots;

  constructor(options: { maxActivePerOwner: number }) {
    this.#perOwner = new ConcurrencySlots({ limitPerKey: options.maxActivePerOwner });
  }

  /** Registers a new queued run, or null when its owner already has the maximum active. */
  add(record: QueuedRun): ActiveRun | null {
    const slot = this.#perOwner.tryAcquire(record.ownerId);
    if (slot === null) return null;
    const run: ActiveRun = { record, controller: new AbortController(), log: new RunEventLog(), claimed: false, slot };
    this.#runs.set(keyOf(record.ownerId, record.handle, record.jobId), run);
    return run;
  }

  find(ownerId: string, handle: string, jobId: string): ActiveRun | undefined {
    return this.#runs.get(keyOf(ownerId, handle, jobId));
  }

  /** The run has ended: its slot frees and its log closes. Idempotent. */
  remove(run: ActiveRun): void {
    const { ownerId, handle, jobId } = run.record;
    const key = keyOf(ownerId, handle, jobId);
    if (this.#runs.get(key) === run) this.#runs.delete(key);
    run.log.close();
    run.slot.release();
  }

  /** Unclaimed stream reservations whose StreamReservationTtl has passed (of one owner, if given). */
  expiredReservations(now: number, ownerId?: string): ActiveRun[] {
    return [...this.#runs.values()].filter(
      (run) =>
        !run.claimed &&
        run.record.status === 'Queued' &&
        run.record.reservationExpiresAt !== null &&
        run.record.reservationExpiresAt <= now &&
        (ownerId === undefined || run.record.ownerId === ownerId),
    );
  }

  all(): ActiveRun[] {
    return [...this.#runs.values()];
  }

  get size(): number {
    return this.#runs.size;
  }
}
