// The problems of a caller's own datasets (DESIGN.md §19), beside the eval family's (../problems.ts):
// caller-safe details that echo neither a submitted name nor content. Foreign and unknown datasets are
// the same 404 by construction (the owner is in every storage key).
import { ProblemError } from '../../platform/problems/index.js';

export const MY_DATASET_NOT_FOUND_DETAIL = 'Dataset not found. It may never have existed, or it belongs to a different caller.';
export const MY_DATASET_VERSION_NOT_FOUND_DETAIL = 'The dataset has no such version. Versions are numbered from 1; GET the dataset without ?version for its latest.';

export const myDatasetNotFound = (): ProblemError => new ProblemError('not-found', MY_DATASET_NOT_FOUND_DETAIL);
export const myDatasetVersionNotFound = (): ProblemError => new ProblemError('not-found', MY_DATASET_VERSION_NOT_FOUND_DETAIL);

export const invalidDatasetName = (): ProblemError =>
  new ProblemError(
    'validation-failed',
    'A dataset name is 1 to 64 characters of a-z, 0-9 and "-", starting with a letter or digit (the pattern [a-z0-9][a-z0-9-]{0,63}).',
  );

export const emptyDatasetBody = (): ProblemError =>
  new ProblemError('validation-failed', 'The request body is empty; a dataset object ({ description?, subject?, cases, timeoutSeconds? }) was expected.');

export const tooManyDatasets = (max: number): ProblemError =>
  new ProblemError('validation-failed', `This caller already has ${max} datasets, the most one caller may keep; delete one before creating another.`);

/** Writers kept overtaking this one: nothing was stored by it, and a retry is safe. */
export const datasetBusy = (): ProblemError =>
  new ProblemError('conflict', 'The dataset kept changing under concurrent writes; nothing was stored by this request. Retry it.');

/** A case is made only from a finished run (DESIGN §19): Queued, Running or parked for a decision is too early. */
export const runNotFinished = (): ProblemError =>
  new ProblemError('conflict', 'The bundle run has not finished yet; a run becomes a case once it has Succeeded, Failed or been cancelled. Poll it and try again then.');

export const RUN_WITHHELD_DETAIL =
  'The bundle run cannot become a case: frames of it were withheld above BundleExecution:StreamFrameCeilingBytes, so its recording would be incomplete.';
export const RUN_EMPTY_DETAIL = 'The bundle run cannot become a case: it received no user message, or made no model answer and no tool call, so there is nothing to record.';
export const RUN_UNKEPT_DETAIL = 'The bundle run cannot become a case: it finished before runs kept the user messages and the agent id a case needs. Run it again.';

export const runNotRecordable = (detail: string): ProblemError => new ProblemError('run-not-recordable', detail);
