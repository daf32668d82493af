// The webhook event of an eval run that finished (DESIGN.md §14): its job id, status, verdict (with a
// report) and poll URL; never cases, outputs or costs.
import type { ResourceEvent } from '../../platform/outbox/index.js';
import type { EvalRunData } from '../eval-run.js';

export function evalRunFinished(run: EvalRunData): ResourceEvent {
  return {
    type: 'eval.run.finished',
    ownerId: run.ownerId,
    data: {
      jobId: run.jobId,
      status: run.status,
      ...(run.outcome === null ? {} : { verdict: run.outcome.verdict }),
      url: `/api/evals/runs/${encodeURIComponent(run.jobId)}`,
    },
  };
}
