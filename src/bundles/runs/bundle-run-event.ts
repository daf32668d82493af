// The webhook event of a bundle run's change (DESIGN.md §14): its handle, job id, status (and the
// approval it waits for) and poll URL; never its input, result or usage.
import type { ResourceEvent } from '../../platform/outbox/index.js';

export function bundleRunEvent(
  type: 'bundle.run.finished' | 'bundle.run.awaiting_approval',
  ownerId: string,
  run: { readonly handle: string; readonly jobId: string; readonly status: string },
  approvalId?: string,
): ResourceEvent {
  return {
    type,
    ownerId,
    data: {
      handle: run.handle,
      jobId: run.jobId,
      ...(approvalId === undefined ? {} : { approvalId }),
      status: run.status,
      url: `/api/bundles/${encodeURIComponent(run.handle)}/runs/${encodeURIComponent(run.jobId)}`,
    },
  };
}
