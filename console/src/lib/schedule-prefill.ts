// "Schedule this": links from a workflow's page and from the evals page's run settings to the new
// schedule form with its target filled in (carried in the hash route's query), and reading them back.
import { evalSettingsFrom, evalSettingsQuery, type EvalSettings } from './eval-settings';
import { hrefWithQuery } from './router';

export type PrefilledTarget = { readonly kind: 'workflow'; readonly workflowId: string; readonly input: string } | { readonly kind: 'eval'; readonly settings: EvalSettings };

export interface SchedulePrefill {
  readonly name: string;
  readonly target: PrefilledTarget | null;
}

const NEW_SCHEDULE = ['schedules', 'new'] as const;

/** The workflow as the target, with the run input typed so far (JSON text, possibly empty). */
export function scheduleWorkflowLink(workflowId: string, workflowName: string, input: string): string {
  return hrefWithQuery(NEW_SCHEDULE, { target: 'workflow', workflowId, name: workflowName, ...(input.trim() === '' ? {} : { input }) });
}

export function scheduleEvalLink(settings: EvalSettings): string {
  return hrefWithQuery(NEW_SCHEDULE, { target: 'eval', name: `Eval of ${[...settings.datasets].join(', ')}`.slice(0, 200), ...evalSettingsQuery(settings) });
}

export function prefillFrom(query: URLSearchParams): SchedulePrefill {
  const name = query.get('name') ?? '';
  const workflowId = query.get('workflowId');
  if (query.get('target') === 'workflow' && workflowId !== null) return { name, target: { kind: 'workflow', workflowId, input: query.get('input') ?? '' } };
  if (query.get('target') === 'eval') return { name, target: { kind: 'eval', settings: evalSettingsFrom(query) } };
  return { name, target: null };
}
