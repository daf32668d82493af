// Logging wraps step execution (the engine itself never logs): a debug line per step outcome, an
// info line per failure, and the runner's exception when one throws (then rethrown for the engine).
// The fields of a line are built only when a line is written, and the wrapper is a promise chain,
// not another async layer: it runs on every step of every run.
import type { Logger } from '../../platform/log/index.js';
import { mapStepRunners, type StepContext, type StepRunner, type StepRunners } from '../engine/step-runner.js';
import { promiseOf } from '../../platform/promise/index.js';

export function logStepRunners(runners: StepRunners, logger: Logger, run: { readonly jobId: string; readonly workflowId: string }): StepRunners {
  const fields = (context: StepContext): { jobId: string; workflowId: string; step: string; type: string } => ({
    jobId: run.jobId,
    workflowId: run.workflowId,
    step: context.step.path,
    type: context.step.type,
  });
  const wrap =
    (runner: StepRunner): StepRunner =>
    (context) =>
      promiseOf(() => runner(context)).then(
        (outcome) => {
          if (!outcome.ok) logger.info({ ...fields(context), error: outcome.error }, 'workflow step failed');
          else if (logger.isLevelEnabled('debug')) logger.debug(fields(context), 'workflow step succeeded');
          return outcome;
        },
        (error: unknown) => {
          if (!context.signal.aborted) logger.error({ ...fields(context), err: error }, 'workflow step threw');
          throw error;
        },
      );
  return mapStepRunners(runners, wrap);
}
