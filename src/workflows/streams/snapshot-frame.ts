// The SNAPSHOT frame: the run's state when a watcher attaches, numbered with the last journal event it
// already reflects.
import type { SnapshotFrame } from '../events.js';
import { projectSteps } from '../runs/run-projection.js';
import { isFinal } from '../runs/run-status.js';
import type { RunView } from '../runs/workflow-run-store.js';

export function snapshotFrame(view: RunView, sequence: number): SnapshotFrame {
  const run = view.record.data;
  return { type: 'SNAPSHOT', jobId: run.jobId, status: run.status, isTerminal: isFinal(run.status), sequence, steps: projectSteps(view) };
}
