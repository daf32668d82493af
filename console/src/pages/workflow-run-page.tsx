// One workflow run, live: step states from the progress stream over the workflow's DAG, the pending
// approvals (answered in the inbox) and cancel.
import { useState } from 'preact/hooks';
import type { WorkflowDetail } from '../api/types';
import { Badge, Facts, ProblemNotice } from '../components/common';
import { RunGraph } from '../components/run-graph';
import { useApi } from '../lib/api-context';
import { when } from '../lib/format';
import { FINAL, useLiveRun } from '../lib/live-run';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

export function WorkflowRunPage({ workflowId, jobId }: { workflowId: string; jobId: string }) {
  useTitle(`Run ${jobId}`);
  const api = useApi();
  const workflow = useAsync((signal) => api.get<WorkflowDetail>(`/api/workflows/${encodeURIComponent(workflowId)}`, signal), [api, workflowId]);
  const [nudge, setNudge] = useState(0);
  const live = useLiveRun(api, workflowId, jobId, nudge);
  const [error, setError] = useState<unknown>(undefined);
  const run = live.run;

  const cancel = async (): Promise<void> => {
    setError(undefined);
    try {
      await api.send('DELETE', `/api/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(jobId)}`);
      setNudge((n) => n + 1);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section>
      <h1>
        Run of <a href={href('workflows', workflowId)}>{workflow.value?.name ?? 'workflow'}</a>
      </h1>
      <ProblemNotice error={workflow.error ?? live.error} />
      {run === undefined ? null : (
        <>
          <Facts
            items={[
              ['Job', run.jobId],
              ['Status', <Badge status={run.status} />],
              ['Live', live.streaming ? 'following the progress stream' : FINAL.has(run.status) ? 'finished' : run.status === 'Blocked' ? 'waiting for an approval' : 'polling'],
              ['Started', when(run.startedAt)],
              ['Finished', when(run.completedAt)],
              ...(run.error === null ? [] : [['Error', run.error] as const]),
            ]}
          />
          {run.pendingApprovals.length === 0 ? null : (
            <div class="notice" role="status">
              Waiting for {run.pendingApprovals.map((approval) => `“${approval.stepName}”`).join(', ')}. <a href={href('approvals')}>Answer in the inbox</a>.
            </div>
          )}
          {FINAL.has(run.status) ? null : (
            <button type="button" class="danger" onClick={() => void cancel()}>
              Cancel run
            </button>
          )}
          <ProblemNotice error={error} context="The run was not cancelled" />
          {workflow.value === undefined ? null : <RunGraph workflow={workflow.value} run={run} />}
        </>
      )}
    </section>
  );
}
