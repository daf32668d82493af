// My workflow definitions and my recent runs across them.
import type { WorkflowRun, WorkflowSummary } from '../api/types';
import { Badge, Empty, ProblemNotice } from '../components/common';
import { useApi } from '../lib/api-context';
import { when } from '../lib/format';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

export function WorkflowsPage() {
  useTitle('Workflows');
  const api = useApi();
  const workflows = useAsync((signal) => api.get<{ workflows: WorkflowSummary[] }>('/api/workflows', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: WorkflowRun[] }>('/api/workflows/runs?limit=20', signal), [api], 5000);
  const names = new Map((workflows.value?.workflows ?? []).map((w) => [w.id, w.name]));
  return (
    <section>
      <div class="heading-row">
        <h1>Workflows</h1>
        <a class="button primary" href={href('workflows', 'new')}>
          New workflow
        </a>
      </div>
      <ProblemNotice error={workflows.error} />
      <h2>Definitions</h2>
      {workflows.value?.workflows.length === 0 ? <Empty>No workflows yet. Write one with “New workflow”.</Empty> : null}
      <ul class="plain-list" aria-label="Workflow definitions">
        {(workflows.value?.workflows ?? []).map((workflow) => (
          <li key={workflow.id}>
            <a href={href('workflows', workflow.id)}>{workflow.name}</a> <span class="meta">created {when(workflow.createdAt)}</span>
          </li>
        ))}
      </ul>
      <h2>Recent runs</h2>
      <ProblemNotice error={runs.error} />
      <RunTable runs={runs.value?.runs ?? []} names={names} />
    </section>
  );
}

export function RunTable({ runs, names }: { runs: readonly WorkflowRun[]; names?: ReadonlyMap<string, string> }) {
  if (runs.length === 0) return <Empty>No runs yet.</Empty>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Run</th>
          {names === undefined ? null : <th scope="col">Workflow</th>}
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.jobId}>
            <td>
              <a href={href('workflows', run.workflowId, 'runs', run.jobId)}>{run.jobId}</a>
            </td>
            {names === undefined ? null : <td>{names.get(run.workflowId) ?? run.workflowId}</td>}
            <td>
              <Badge status={run.status} />
            </td>
            <td>{when(run.startedAt)}</td>
            <td>{when(run.completedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
