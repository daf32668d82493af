// The SNAPSHOT frame: the run's state when a watcher attaches, numbered with the last logged frame it
// already reflects.
import type { SnapshotFrame } from '../events.js';
import { projectStep } from '../runs/run-projection.js';
import { isFinal } from '../runs/run-status.js';
import type { WorkflowRun } from '../runs/workflow-run.js';

export function snapshotFrame(run: WorkflowRun): SnapshotFrame {
  return {
    type: 'SNAPSHOT',
    jobId: run.jobId,
    status: run.status,
    isTerminal: isFinal(run.status),
    sequence: run.log.lastSequence,
    steps: run.steps.map(projectStep),
  };
}
