// My schedules (DESIGN §14): what each starts, its cron and zone, whether it is on, and its next fire
// in the viewer's own time zone.
import type { Schedule, WorkflowSummary } from '../api/types';
import { Badge, Empty, Instant, ProblemNotice } from '../components/common';
import { ScheduleTargetText } from '../components/schedule-target';
import { useApi } from '../lib/api-context';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

export function SchedulesPage() {
  useTitle('Schedules');
  const api = useApi();
  // At most 50 per caller (DESIGN §14): one page holds them all.
  const schedules = useAsync((signal) => api.get<{ schedules: Schedule[] }>('/api/schedules?limit=50', signal), [api], 15_000);
  const workflows = useAsync((signal) => api.get<{ workflows: WorkflowSummary[] }>('/api/workflows', signal), [api]);
  const names = new Map((workflows.value?.workflows ?? []).map((w) => [w.id, w.name]));
  const list = schedules.value?.schedules;
  return (
    <section>
      <div class="heading-row">
        <h1>Schedules</h1>
        <a class="button primary" href={href('schedules', 'new')}>
          New schedule
        </a>
      </div>
      <p class="hint">Workflow and eval runs started on a cron, as you. Times are shown in your time zone; hover one for UTC.</p>
      <ProblemNotice error={schedules.error} />
      {list?.length === 0 ? <Empty>No schedules yet. “Schedule this” on a workflow or on the evals page starts one.</Empty> : null}
      {list === undefined || list.length === 0 ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Cron</th>
              <th scope="col">Time zone</th>
              <th scope="col">Starts</th>
              <th scope="col">State</th>
              <th scope="col">Next fire</th>
            </tr>
          </thead>
          <tbody>
            {list.map((schedule) => (
              <tr key={schedule.id}>
                <td>
                  <a href={href('schedules', schedule.id)}>{schedule.name}</a>
                </td>
                <td>
                  <code>{schedule.cron}</code>
                </td>
                <td>{schedule.timeZone}</td>
                <td>
                  <ScheduleTargetText target={schedule.target} workflowNames={names} />
                </td>
                <td>
                  <EnabledBadge enabled={schedule.enabled} />
                </td>
                <td>
                  <Instant iso={schedule.nextRunAt} none="— (disabled)" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <Badge status={enabled ? 'enabled' : 'disabled'} label={enabled ? 'Enabled' : 'Disabled'} />;
}
