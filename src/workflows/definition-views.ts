// Response bodies for stored definitions (DESIGN §6 and §10): the submit answer (ids of the steps by
// name), the list entry and the stored definition with its ids. Owner and bookkeeping stay inside.
import type { StepConfiguration, StoredWorkflow } from './definition/workflow-definition.js';
import type { SubmitResponse, WorkflowDetail, WorkflowList } from './schemas.js';
import { isoInstant } from '../platform/clock/index.js';

export function submitView(workflow: StoredWorkflow): SubmitResponse {
  return {
    id: workflow.id,
    name: workflow.name,
    steps: workflow.steps.map((step) => ({ name: step.name, id: step.id })),
    createdAt: isoInstant(workflow.createdAt),
  };
}

export function listView(workflows: readonly StoredWorkflow[]): WorkflowList {
  return { workflows: workflows.map((w) => ({ id: w.id, name: w.name, createdAt: isoInstant(w.createdAt) })) };
}

export function detailView(workflow: StoredWorkflow): WorkflowDetail {
  return {
    id: workflow.id,
    name: workflow.name,
    createdAt: isoInstant(workflow.createdAt),
    steps: workflow.steps.map((step) => ({ id: step.id, name: step.name, type: step.type, configuration: configurationView(step.configuration) })),
    edges: workflow.edges.map((edge) => ({ ...edge })),
    configuration: { entryStep: workflow.entryStep, input: { ...workflow.input } },
  };
}

/** A fresh copy, so the response never shares arrays with the stored definition. */
function configurationView(configuration: StepConfiguration): WorkflowDetail['steps'][number]['configuration'] {
  return configuration.type === 'RetrievalPlan' ? { ...configuration, queries: [...configuration.queries] } : { ...configuration };
}

export function workflowLocation(id: string): string {
  return `/api/workflows/${encodeURIComponent(id)}`;
}

export function runStatusUrl(workflowId: string, jobId: string): string {
  return `/api/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(jobId)}`;
}
