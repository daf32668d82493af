// One workflow: its DAG, its steps' configuration, its runs, and "start a run" (with optional input)
// or "schedule this" (the new schedule form with this workflow and that input filled in).
import { useState } from 'preact/hooks';
import type { WorkflowDetail, WorkflowRun } from '../api/types';
import { Facts, ProblemNotice, Verbatim } from '../components/common';
import { DagView } from '../components/dag-view';
import { useApi } from '../lib/api-context';
import { useFamilies } from '../lib/families';
import { asText, when } from '../lib/format';
import { navigate, useTitle } from '../lib/router';
import { scheduleWorkflowLink } from '../lib/schedule-prefill';
import { useAsync } from '../lib/use-async';
import { RunTable } from './workflows-page';

export function WorkflowPage({ workflowId }: { workflowId: string }) {
  const api = useApi();
  const path = `/api/workflows/${encodeURIComponent(workflowId)}`;
  const workflow = useAsync((signal) => api.get<WorkflowDetail>(path, signal), [api, path]);
  const runs = useAsync((signal) => api.get<{ runs: WorkflowRun[] }>(`/api/workflows/runs?workflowId=${encodeURIComponent(workflowId)}&limit=50`, signal), [api, workflowId], 5000);
  const [input, setInput] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [inputProblem, setInputProblem] = useState<string | null>(null);
  const schedulable = useFamilies().schedules;
  useTitle(workflow.value?.name ?? 'Workflow');

  const start = async (): Promise<void> => {
    setError(undefined);
    setInputProblem(null);
    let body: unknown;
    if (input.trim() !== '') {
      try {
        body = { input: JSON.parse(input) as unknown };
      } catch {
        setInputProblem('The input is not valid JSON.');
        return;
      }
    }
    try {
      const started = await api.send<{ jobId: string }>('POST', `${path}/runs`, body);
      navigate('workflows', workflowId, 'runs', started.jobId);
    } catch (caught) {
      setError(caught);
    }
  };

  const value = workflow.value;
  return (
    <section>
      <h1>{value?.name ?? 'Workflow'}</h1>
      <ProblemNotice error={workflow.error} />
      {value === undefined ? null : (
        <>
          <Facts items={[['Id', value.id], ['Created', when(value.createdAt)], ['Entry step', value.configuration.entryStep]]} />
          <div class="split wide-first">
            <div class="pane wide">
              <h2>Graph</h2>
              <DagView label={`Steps of ${value.name}`} steps={value.steps} edges={value.edges} />
            </div>
            <div class="pane">
              <h2>Start a run</h2>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  void start();
                }}
              >
                <label for="run-input">Input (JSON object, optional)</label>
                <textarea id="run-input" rows={4} spellcheck={false} value={input} onInput={(event) => setInput(event.currentTarget.value)} placeholder={asText(value.configuration.input)} />
                {inputProblem === null ? null : <p class="field-error" role="alert">{inputProblem}</p>}
                <div class="actions">
                  <button type="submit" class="primary">
                    Start run
                  </button>
                  {!schedulable ? null : (
                    <a class="button" href={scheduleWorkflowLink(workflowId, value.name, input)}>
                      Schedule this
                    </a>
                  )}
                </div>
              </form>
              <ProblemNotice error={error} context="The run was not started" />
            </div>
          </div>
          <h2>Steps</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Type</th>
                <th scope="col">Configuration</th>
              </tr>
            </thead>
            <tbody>
              {value.steps.map((step) => (
                <tr key={step.name}>
                  <th scope="row">{step.name}</th>
                  <td>{step.type}</td>
                  <td>
                    <Verbatim text={asText(step.configuration)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2>Runs</h2>
      <ProblemNotice error={runs.error} />
      <RunTable runs={runs.value?.runs ?? []} />
    </section>
  );
}
