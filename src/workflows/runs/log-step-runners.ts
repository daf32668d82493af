// Logging wraps step execution (the engine itself never logs): a debug line per step outcome, an
// info line per failure, and the runner's exception when one throws (then rethrown for the engine).
import type { Logger } from '../../platform/log/index.js';
import { mapStepRunners, type StepRunner, type StepRunners } from '../engine/step-runner.js';

export function logStepRunners(runners: StepRunners, logger: Logger, run: { readonly jobId: string; readonly workflowId: string }): StepRunners {
  const wrap = (runner: StepRunner): StepRunner => async (context) => {
    const fields = { jobId: run.jobId, workflowId: run.workflowId, step: context.step.path, type: context.step.type };
    try {
      const outcome = await runner(context);
      if (outcome.ok) logger.debug(fields, 'workflow step succeeded');
      else logger.info({ ...fields, error: outcome.error }, 'workflow step failed');
      return outcome;
    } catch (error) {
      if (!context.signal.aborted) logger.error({ ...fields, err: error }, 'workflow step threw');
      throw error;
    }
  };
  return mapStepRunners(runners, wrap);
}
