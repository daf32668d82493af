// With tracing on, each workflow step is a span (`workflow_step {type}`) under the run's span, so the
// step's model call (`chat …`) and tool call (`execute_tool …`) nest under it. Attributes: the step's
// path and type, the workflow id, and the outcome; never its configuration, input or output. With
// tracing off the runners are returned as they are.
import { markFailed, type Tracing } from '../../platform/tracing/index.js';
import { mapStepRunners, type StepRunner, type StepRunners } from '../engine/step-runner.js';

export function traceStepRunners(runners: StepRunners, tracing: Tracing | undefined, run: { readonly workflowId: string }): StepRunners {
  if (tracing?.enabled !== true) return runners;
  const wrap = (runner: StepRunner): StepRunner => async (context) => {
    const span = tracing.startSpan(`workflow_step ${context.step.type}`, {
      attributes: { 'portcullis.workflow.id': run.workflowId, 'portcullis.workflow.step': context.step.path, 'portcullis.workflow.step_type': context.step.type },
    });
    try {
      const outcome = await tracing.withSpan(span, () => runner(context));
      span.setAttribute('portcullis.workflow.step_outcome', outcome.ok ? 'succeeded' : 'failed');
      if (!outcome.ok) span.setAttribute('error.type', 'step_failed');
      return outcome;
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  };
  return mapStepRunners(runners, wrap);
}
