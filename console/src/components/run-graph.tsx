// A workflow run beside its definition: the DAG with each step's live state, and the same as a list.
import type { WorkflowDetail, WorkflowRun } from '../api/types';
import { asText } from '../lib/format';
import { Badge, Verbatim } from './common';
import { DagView } from './dag-view';

export function RunGraph({ workflow, run }: { workflow: WorkflowDetail; run: WorkflowRun }) {
  const status = new Map(run.steps.map((step) => [step.name, step]));
  return (
    <div class="run-graph">
      <DagView
        label={`Steps of ${workflow.name} and their states`}
        steps={workflow.steps.map((step) => ({ name: step.name, type: step.type, status: status.get(step.name)?.status ?? 'Pending' }))}
        edges={workflow.edges}
      />
      <table class="steps">
        <caption>Steps</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Type</th>
            <th scope="col">State</th>
            <th scope="col">Output or error</th>
          </tr>
        </thead>
        <tbody>
          {run.steps.map((step) => (
            <tr key={step.name} data-step={step.name}>
              <th scope="row">{step.name}</th>
              <td>{step.type}</td>
              <td>
                <Badge status={step.status} />
              </td>
              <td>{step.error !== null ? <Verbatim text={step.error} /> : step.output === undefined || step.output === null ? '—' : <Verbatim text={asText(step.output)} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
