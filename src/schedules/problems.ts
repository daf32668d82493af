// The schedule routes' problems (DESIGN.md §14). Foreign and unknown schedules are one 404.
import { ProblemError } from '../platform/problems/index.js';

export const SCHEDULE_NOT_FOUND_DETAIL = 'Schedule not found. It may never have existed, was deleted, or belongs to a different caller.';

export const scheduleNotFound = (): ProblemError => new ProblemError('not-found', SCHEDULE_NOT_FOUND_DETAIL);

export const schedulesDisabled = (): ProblemError =>
  new ProblemError('forbidden', 'Schedules are turned off on this host (AppConfig:Schedules:Enabled is false).');

export const scheduleCapReached = (max: number): ProblemError =>
  new ProblemError('conflict', `This caller already has the maximum of ${max} schedules; delete one first.`);

export const scheduleTargetMissing = (what: 'workflow' | 'dataset'): ProblemError =>
  new ProblemError(
    'validation-failed',
    what === 'workflow'
      ? 'target.workflow.workflowId names no workflow of yours: submit it first (POST /api/workflows), or name another.'
      : 'target.eval.datasets names a dataset that does not exist: GET /api/evals/datasets lists the host’s, GET /api/evals/datasets/mine yours.',
  );

export const unknownTimeZone = (name: string): ProblemError =>
  new ProblemError('validation-failed', `timeZone '${name}' is not an IANA time zone name (such as UTC or Europe/Paris).`);

export const scheduleChangedMeanwhile = (): ProblemError =>
  new ProblemError('conflict', 'The schedule was changed by another request at the same time; read it again and retry.');
