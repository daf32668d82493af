// One schedule (DESIGN §14): its cron, zone and target, its next fire in the viewer's time zone,
// enable/disable (a PATCH: from then on it runs under my claims as they are now), delete, and its
// recent fires — what each started (linked) or why it did not.
import type { Schedule, ScheduleFire, WorkflowSummary } from '../api/types';
import { ConfirmButton } from '../components/confirm-button';
import { ActionOutcome, Badge, Empty, Facts, Instant, ProblemNotice, Verbatim } from '../components/common';
import { runHref, ScheduleTargetText } from '../components/schedule-target';
import { useApi } from '../lib/api-context';
import { asText, when } from '../lib/format';
import { href, navigate, useTitle } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';
import { usePages } from '../lib/use-pages';
import { EnabledBadge } from './schedules-page';

const FIRES_REFRESH_MS = 3000;

export function SchedulePage({ scheduleId }: { scheduleId: string }) {
  const api = useApi();
  const path = `/api/schedules/${encodeURIComponent(scheduleId)}`;
  const schedule = useAsync((signal) => api.get<Schedule>(path, signal), [api, path], 15_000);
  const workflows = useAsync((signal) => api.get<{ workflows: WorkflowSummary[] }>('/api/workflows', signal), [api]);
  const fires = usePages<ScheduleFire>(`${path}/fires`, 'fires', (fire) => `${fire.scheduledFor} ${fire.firedAt}`, FIRES_REFRESH_MS);
  const action = useAction();
  const value = schedule.value;
  useTitle(value?.name ?? 'Schedule');

  const setEnabled = (enabled: boolean): Promise<void> =>
    action.run(async () => {
      await api.send<Schedule>('PATCH', path, { enabled });
      schedule.reload();
      return enabled ? 'Enabled: its next fire is planned from now.' : 'Disabled: it does not fire until enabled again.';
    });
  const remove = (): Promise<void> =>
    action.run(async () => {
      await api.send('DELETE', path);
      navigate('schedules');
    });

  const names = new Map((workflows.value?.workflows ?? []).map((w) => [w.id, w.name]));
  return (
    <section>
      <h1>{value?.name ?? 'Schedule'}</h1>
      <p class="meta">
        <a href={href('schedules')}>all schedules</a>
      </p>
      <ProblemNotice error={schedule.error} />
      {value === undefined ? null : (
        <>
          <Facts
            items={[
              ['Cron', <code>{value.cron}</code>],
              ['Read in', value.timeZone],
              ['Starts', <ScheduleTargetText target={value.target} workflowNames={names} />],
              ['State', <EnabledBadge enabled={value.enabled} />],
              ['Next fire', <Instant iso={value.nextRunAt} none="— (disabled)" />],
              ['Created', when(value.createdAt)],
            ]}
          />
          {'eval' in value.target ? <TargetSettings settings={value.target.eval} /> : <TargetSettings settings={value.target.workflow.input} label="Input" />}
          <div class="actions">
            <button type="button" disabled={action.busy} onClick={() => void setEnabled(!value.enabled)}>
              {value.enabled ? 'Disable schedule' : 'Enable schedule'}
            </button>
            <ConfirmButton
              label="Delete schedule"
              question="Delete this schedule? It never fires again; runs it started are not touched."
              confirmLabel="Yes, delete it"
              onConfirm={remove}
            />
          </div>
          <ActionOutcome action={action} />
        </>
      )}
      <h2>Recent fires</h2>
      <ProblemNotice error={fires.error} />
      {fires.items?.length === 0 ? <Empty>It has not fired yet.</Empty> : null}
      {fires.items === undefined || fires.items.length === 0 || value === undefined ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Scheduled for</th>
              <th scope="col">Fired</th>
              <th scope="col">Outcome</th>
              <th scope="col">Reason</th>
              <th scope="col">Run</th>
            </tr>
          </thead>
          <tbody>
            {fires.items.map((fire) => (
              <tr key={`${fire.scheduledFor} ${fire.firedAt}`}>
                <td>
                  <Instant iso={fire.scheduledFor} />
                </td>
                <td>
                  <Instant iso={fire.firedAt} />
                </td>
                <td>
                  <Badge status={fire.outcome} />
                </td>
                <td>{fire.reason ?? '—'}</td>
                <td>{fire.outcome === 'Started' && fire.jobId !== undefined ? <a href={runHref(value.target, fire.jobId)}>{fire.jobId}</a> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {fires.more ? (
        <button type="button" onClick={fires.loadMore}>
          Load older fires
        </button>
      ) : null}
    </section>
  );
}

/** The run settings a fire starts with (an eval's, or a workflow's input), when there are any. */
function TargetSettings({ settings, label = 'Run settings' }: { settings: unknown; label?: string }) {
  if (settings === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <Verbatim text={asText(settings)} label={label} />
    </details>
  );
}
