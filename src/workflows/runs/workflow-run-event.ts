// The webhook event of a workflow run's change (DESIGN.md §14): its ids, status and poll URL; never
// its input, step outputs or usage.
import type { ResourceEvent } from '../../platform/outbox/index.js';
import type { WorkflowRunData } from './workflow-run.js';

export function workflowRunEvent(type: 'workflow.run.blocked' | 'workflow.run.finished', ownerId: string, run: WorkflowRunData, status: string): ResourceEvent {
  return {
    type,
    ownerId,
    data: {
      workflowId: run.workflowId,
      jobId: run.jobId,
      status,
      url: `/api/workflows/${encodeURIComponent(run.workflowId)}/runs/${encodeURIComponent(run.jobId)}`,
    },
  };
}
