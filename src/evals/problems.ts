// The eval family's problems: one place for their caller-safe details. Every one is a ProblemError
// of the shared catalog; none echoes a submitted name, a host path or a file's content.
import { ProblemError } from '../platform/problems/index.js';
import { EVALS_FORBIDDEN_DETAIL } from '../platform/access/index.js';

export { EVALS_FORBIDDEN_DETAIL };
export const EVALS_DISABLED_DETAIL = 'Evaluation is disabled on this host. Set AppConfig:AI:Evaluation:Enabled to true.';
export const DATASET_NOT_FOUND_DETAIL =
  'A named dataset was not found. Datasets are named as GET /api/evals/datasets lists them, never by path.';
export const EVAL_RUN_NOT_FOUND_DETAIL = 'Eval run not found. It may never have existed, or it belongs to a different caller.';
export const BASELINE_NOT_FOUND_DETAIL =
  'The baseline run was not found: name a Succeeded eval run of yours whose report is still kept.';
export const REPORT_RECLAIMED_DETAIL = 'The run’s report is no longer available: its submission was reclaimed.';

export const evalsDisabled = (): ProblemError => new ProblemError('forbidden', EVALS_DISABLED_DETAIL);
export const datasetNotFound = (): ProblemError => new ProblemError('not-found', DATASET_NOT_FOUND_DETAIL);
export const runNotFound = (): ProblemError => new ProblemError('not-found', EVAL_RUN_NOT_FOUND_DETAIL);
export const baselineNotFound = (): ProblemError => new ProblemError('not-found', BASELINE_NOT_FOUND_DETAIL);
export const reportReclaimed = (): ProblemError => new ProblemError('not-found', REPORT_RECLAIMED_DETAIL);

/** A ceiling of Evaluation:* was breached: the request is refused as a whole, never truncated. */
export const ceilingBreached = (detail: string): ProblemError => new ProblemError('validation-failed', detail);

export const runFinished = (): ProblemError => new ProblemError('conflict', 'The eval run has already finished; there is nothing to cancel.');
export const runNotFinished = (): ProblemError =>
  new ProblemError('conflict', 'The eval run has not finished yet; its report exists once it has. Poll the run for its status.');
