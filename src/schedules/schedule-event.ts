// The webhook events of a schedule's fire (DESIGN.md §14): `schedule.fired` when it started its run,
// `schedule.failed` when it could not (Skipped or Failed). Ids as poll bodies name them; the URL is
// where the reader goes next — the run it started, or the schedule's fires with the reason (decision
// 1302); never the target's input or the reason itself (that stays behind the owner's GET).
import type { ResourceEvent } from '../platform/outbox/index.js';
import type { FireData } from './schedule-fire.js';
import type { ScheduleData } from './schedule-record.js';

const scheduleUrl = (scheduleId: string) => `/api/schedules/${encodeURIComponent(scheduleId)}`;

export function scheduleFireEvent(ownerId: string, schedule: ScheduleData, fire: FireData): ResourceEvent {
  const workflowId = 'workflow' in schedule.target ? schedule.target.workflow.workflowId : undefined;
  if (fire.state === 'Started' && fire.jobId !== null) {
    const url =
      workflowId === undefined
        ? `/api/evals/runs/${encodeURIComponent(fire.jobId)}`
        : `/api/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(fire.jobId)}`;
    return { type: 'schedule.fired', ownerId, data: { scheduleId: schedule.id, jobId: fire.jobId, ...(workflowId === undefined ? {} : { workflowId }), status: fire.state, url } };
  }
  return {
    type: 'schedule.failed',
    ownerId,
    data: { scheduleId: schedule.id, ...(workflowId === undefined ? {} : { workflowId }), status: fire.state, url: `${scheduleUrl(schedule.id)}/fires` },
  };
}
