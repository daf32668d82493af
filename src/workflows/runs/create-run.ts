// A new Queued run record: the step list is the whole expansion (sub-plan steps followed by their
// children), every step Pending.
import { flattenGraph } from '../engine/build-graph.js';
import { RunLog } from './run-log.js';
import type { RunStepRecord, WorkflowRun } from './workflow-run.js';

export type NewRun = Pick<WorkflowRun, 'jobId' | 'workflowId' | 'ownerId' | 'envelope' | 'input' | 'graph' | 'createdAt'> & {
  /** Frames the run log retains for re-attaching watchers. */
  readonly logRetain: number;
};

export function createRun(spec: NewRun): WorkflowRun {
  const steps: RunStepRecord[] = flattenGraph(spec.graph).map((step) => ({
    id: step.id,
    name: step.path,
    type: step.type,
    status: 'Pending',
    startedAt: null,
    completedAt: null,
    output: null,
    error: null,
    usage: null,
  }));
  let markSettled: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    markSettled = resolve;
  });
  return {
    jobId: spec.jobId,
    workflowId: spec.workflowId,
    ownerId: spec.ownerId,
    envelope: spec.envelope,
    input: spec.input,
    graph: spec.graph,
    createdAt: spec.createdAt,
    status: 'Queued',
    startedAt: null,
    completedAt: null,
    error: null,
    steps,
    stepsById: new Map(steps.map((step) => [step.id, step])),
    approvals: [],
    log: new RunLog(spec.logRetain),
    parked: null,
    controller: new AbortController(),
    cancelRequested: false,
    usage: { inputTokens: 0, outputTokens: 0 },
    settled,
    markSettled: () => markSettled(),
  };
}
