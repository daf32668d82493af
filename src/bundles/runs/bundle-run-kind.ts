// Bundle runs as the run engine knows them: records in the `bundle-run` collection, live while Queued
// or Running, dispatched MaxConcurrentDispatchedBundleRuns at a time on each instance. A run whose lease
// lapsed is settled, never replayed: one that was Running on a dead instance ends Failed with
// DESIGN §11's "The host executing this run stopped." (its tools may have had effects), an unopened
// stream reservation ends Failed as reclaimed, and a background run that never started is run here.
// At shutdown a background run that never started ends Failed as cancelled (Memory) or is left for
// another instance to take over (durable storage).
import type { Clock } from '../../platform/clock/index.js';
import type { StoredRecord } from '../../platform/storage/index.js';
import type { LiveRun, RunKind } from '../../runs/index.js';
import { RUN_CANCELLED, RUN_HOST_STOPPED, RUN_RESERVATION_EXPIRED } from './run-errors.js';
import type { BundleRunRecord } from './run-record.js';
import { LIVE_STATES, RUN_COLLECTION, type RunStore } from './run-store.js';
import { failRun } from './run-transitions.js';

export function bundleRunKind(options: {
  readonly clock: Clock;
  readonly runs: RunStore;
  readonly maxConcurrent: number;
  readonly holder: string;
  /** Whether the storage outlives this process (then an unstarted run is left for another instance). */
  readonly durable: boolean;
  readonly execute: (run: LiveRun) => Promise<void>;
}): RunKind {
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    lane: { maxConcurrent: options.maxConcurrent },
    execute: options.execute,
    takeOver: async (stored: StoredRecord) => {
      const run = stored.data as BundleRunRecord;
      if (run.status === 'Queued' && run.mode === 'background') return 'execute';
      if (run.status !== 'Queued' && run.status !== 'Running') return 'settled';
      const now = options.clock.now();
      const failed =
        run.status === 'Queued'
          ? failRun(run, RUN_RESERVATION_EXPIRED, Math.min(now, run.reservationExpiresAt ?? now))
          : failRun(run, RUN_HOST_STOPPED, now);
      await options.runs.transition(failed, { from: [run.status], holder: options.holder }, now);
      return 'settled';
    },
    abandon: async (key) => {
      if (options.durable) return;
      const stored = await options.runs.stored(key);
      if (stored?.data.status !== 'Queued') return;
      const now = options.clock.now();
      await options.runs.transition(failRun(stored.data, RUN_CANCELLED, now), { from: ['Queued'] }, now);
    },
  };
}
