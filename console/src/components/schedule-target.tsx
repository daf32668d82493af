// What a schedule starts, said in a line: the workflow (linked, by name when known) or the eval's
// datasets; and where a run one of its fires started is shown.
import type { ScheduleTarget } from '../api/types';
import { href } from '../lib/router';

export function ScheduleTargetText({ target, workflowNames }: { target: ScheduleTarget; workflowNames?: ReadonlyMap<string, string> }) {
  if ('workflow' in target) {
    const { workflowId } = target.workflow;
    return (
      <>
        workflow <a href={href('workflows', workflowId)}>{workflowNames?.get(workflowId) ?? workflowId}</a>
      </>
    );
  }
  return <>eval of {target.eval.datasets.join(', ')}</>;
}

/** The page of a run a fire started. */
export function runHref(target: ScheduleTarget, jobId: string): string {
  return 'workflow' in target ? href('workflows', target.workflow.workflowId, 'runs', jobId) : href('evals', jobId);
}
