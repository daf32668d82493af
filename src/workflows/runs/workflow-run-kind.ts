// Workflow runs as the run engine knows them: records in the `workflow-run` collection, live while
// Queued, Running or Blocked, dispatched Workflows:MaxConcurrentRuns at a time per instance (a Blocked
// run gives its slot back while a person decides). A run whose lease lapsed is resumed here from its
// checkpoints (at-least-once for the step that was running). At shutdown a run that never started is
// cancelled (Memory) or left for another instance (durable storage).
import type { RunKind } from '../runs/index.js';
import type { RunExecutor } from './runs/run-executor.js';
import { RUN_CANCELLED } from './runs/run-executor.js';
import { LIVE_STATES, RUN_COLLECTION, type RunStore } from './runs/run-store.js';

export function workflowRunKind(options: {
  readonly runs: RunStore;
  readonly executor: RunExecutor;
  readonly maxConcurrent: number;
  readonly durable: boolean;
}): RunKind {
  return {
    collection: RUN_COLLECTION,
    liveStates: LIVE_STATES,
    lane: { maxConcurrent: options.maxConcurrent },
    execute: (run) => options.executor.execute(run),
    takeOver: async () => 'execute',
    abandon: async (key) => {
      if (options.durable) return;
      const record = await options.runs.record(key, key.id);
      if (record?.data.status !== 'Queued') return;
      await options.executor.finish(key, { ...record.data, cancelRequested: true }, 'Cancelled', RUN_CANCELLED, null, null);
    },
  };
}
