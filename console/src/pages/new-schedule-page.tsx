// A new schedule (DESIGN §14): a name, a cron read in a time zone (the browser's unless changed), and
// what each fire starts — one of my workflows with an optional input, or an eval run with the evals
// page's settings. "Schedule this" on a workflow's page or the evals page opens it filled in.
import { useMemo, useState } from 'preact/hooks';
import type { OwnDatasetSummary, Schedule, ScheduleTarget, WorkflowSummary } from '../api/types';
import { ProblemNotice } from '../components/common';
import { EvalSettingsFields } from '../components/eval-settings-fields';
import { useApi } from '../lib/api-context';
import { DEFAULT_EVAL_SETTINGS, evalRunRequest, type EvalSettings } from '../lib/eval-settings';
import { viewerTimeZone } from '../lib/format';
import { currentQuery, href, navigate, useTitle } from '../lib/router';
import { prefillFrom } from '../lib/schedule-prefill';
import { useAsync } from '../lib/use-async';

type Kind = 'workflow' | 'eval';

export function NewSchedulePage() {
  useTitle('New schedule');
  const api = useApi();
  const [prefill] = useState(() => prefillFrom(currentQuery()));
  const [name, setName] = useState(prefill.name);
  const [cron, setCron] = useState('');
  const [timeZone, setTimeZone] = useState(viewerTimeZone);
  const [enabled, setEnabled] = useState(true);
  const [kind, setKind] = useState<Kind>(prefill.target?.kind ?? 'workflow');
  const [workflowId, setWorkflowId] = useState(prefill.target?.kind === 'workflow' ? prefill.target.workflowId : '');
  const [input, setInput] = useState(prefill.target?.kind === 'workflow' ? prefill.target.input : '');
  const [evalSettings, setEvalSettings] = useState<EvalSettings>(prefill.target?.kind === 'eval' ? prefill.target.settings : DEFAULT_EVAL_SETTINGS);
  const [inputProblem, setInputProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const workflows = useAsync((signal) => api.get<{ workflows: WorkflowSummary[] }>('/api/workflows', signal), [api]);
  // Datasets only once an eval is the target: a caller who may not run evals is not told so for nothing.
  const datasets = useAsync(async (signal) => (kind === 'eval' ? (await api.get<{ datasets: string[] }>('/api/evals/datasets', signal)).datasets : undefined), [api, kind]);
  const ownDatasets = useAsync(async (signal) => (kind === 'eval' ? (await api.get<{ datasets: OwnDatasetSummary[] }>('/api/evals/datasets/mine?limit=100', signal)).datasets : undefined), [api, kind]);
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);

  const target = (): ScheduleTarget | null => {
    if (kind === 'eval') return { eval: evalRunRequest(evalSettings) };
    if (input.trim() === '') return { workflow: { workflowId } };
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setInputProblem('The input must be a JSON object.');
      return null;
    }
    return { workflow: { workflowId, input: parsed as Record<string, unknown> } };
  };

  const create = async (): Promise<void> => {
    setError(undefined);
    setInputProblem(null);
    const chosen = target();
    if (chosen === null) return;
    try {
      const created = await api.send<Schedule>('POST', '/api/schedules', { name: name.trim(), cron: cron.trim(), timeZone: timeZone.trim(), enabled, target: chosen });
      navigate('schedules', created.id);
    } catch (caught) {
      setError(caught);
    }
  };

  const prefilledFrom =
    prefill.target?.kind === 'workflow'
      ? `the workflow ${workflows.value?.workflows.find((w) => w.id === workflowId)?.name ?? prefill.name}`
      : prefill.target?.kind === 'eval'
        ? 'the eval run settings'
        : null;
  const ready = kind === 'workflow' ? workflowId !== '' : evalSettings.datasets.size > 0;
  return (
    <section>
      <h1>New schedule</h1>
      <p class="meta">
        <a href={href('schedules')}>all schedules</a>
      </p>
      {prefilledFrom === null ? null : <p class="notice">Filled in from {prefilledFrom}: say when it runs.</p>}
      <form
        class="pane"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label for="schedule-name">Name</label>
        <input id="schedule-name" type="text" required maxLength={200} value={name} onInput={(event) => setName(event.currentTarget.value)} />
        <div class="fields">
          <div>
            <label for="schedule-cron">Cron</label>
            <input id="schedule-cron" type="text" required spellcheck={false} class="code" aria-describedby="schedule-cron-hint" value={cron} onInput={(event) => setCron(event.currentTarget.value)} placeholder="0 9 * * 1-5" />
            <p id="schedule-cron-hint" class="hint">
              Five fields (minute hour day-of-month month day-of-week), or @hourly, @daily, @weekly, @monthly.
            </p>
          </div>
          <div>
            <label for="schedule-zone">Time zone</label>
            <input id="schedule-zone" type="text" required list="time-zones" aria-describedby="schedule-zone-hint" value={timeZone} onInput={(event) => setTimeZone(event.currentTarget.value)} />
            <datalist id="time-zones">
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
            <p id="schedule-zone-hint" class="hint">
              The cron is read in this IANA zone (yours is {viewerTimeZone()}).
            </p>
          </div>
        </div>
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} /> Enabled (fires from now on)
        </label>
        <fieldset>
          <legend>Each fire starts</legend>
          <label class="check">
            <input type="radio" name="target" value="workflow" checked={kind === 'workflow'} onChange={() => setKind('workflow')} /> a workflow run
          </label>
          <label class="check">
            <input type="radio" name="target" value="eval" checked={kind === 'eval'} onChange={() => setKind('eval')} /> an eval run
          </label>
        </fieldset>
        {kind === 'workflow' ? (
          <>
            <ProblemNotice error={workflows.error} context="Your workflows could not be listed" />
            <label for="schedule-workflow">Workflow</label>
            {workflows.value === undefined ? (
              <p class="hint">Loading your workflows…</p>
            ) : (
              <select id="schedule-workflow" value={workflowId} onChange={(event) => setWorkflowId(event.currentTarget.value)}>
                <option value="">Choose one of your workflows</option>
                {workflows.value.workflows.map((workflow) => (
                  <option key={workflow.id} value={workflow.id}>
                    {workflow.name}
                  </option>
                ))}
              </select>
            )}
            <label for="schedule-input">Input (JSON object, optional)</label>
            <textarea id="schedule-input" class="code" rows={4} spellcheck={false} value={input} onInput={(event) => setInput(event.currentTarget.value)} />
            {inputProblem === null ? null : (
              <p class="field-error" role="alert">
                {inputProblem}
              </p>
            )}
          </>
        ) : (
          <>
            <ProblemNotice error={datasets.error} context="The datasets could not be listed" />
            <EvalSettingsFields datasets={datasets.value} ownDatasets={ownDatasets.value} value={evalSettings} onChange={setEvalSettings} />
          </>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={!ready}>
            Create schedule
          </button>
        </div>
        <ProblemNotice error={error} context="The schedule was not created" />
      </form>
    </section>
  );
}
