// The workflow family's problems: fixed, caller-safe details on the shared catalog's codes. Foreign
// and unknown resources get the same not-found problem by construction (owner-keyed stores).
import { ProblemError } from '../platform/problems/index.js';
import type { Diagnostic } from './definition/diagnostic.js';

const listed = (count: number): string => `${count} problem${count === 1 ? '' : 's'}, listed in 'diagnostics'`;

export function invalidDefinition(diagnostics: readonly Diagnostic[]): ProblemError {
  return new ProblemError('validation-failed', `The workflow definition is invalid: ${listed(diagnostics.length)}.`, { extensions: { diagnostics } });
}

/** A run refused at start (tools not granted, no chat model): the detail carries the first diagnostic, as a fire's reason does. */
export function runCannotStart(diagnostics: readonly [Diagnostic, ...Diagnostic[]]): ProblemError {
  return new ProblemError('validation-failed', `The run cannot start: ${diagnostics[0].message} (${listed(diagnostics.length)})`, { extensions: { diagnostics } });
}

/** A run certain to pass a size bound (expanded steps, a template rendered from the input alone). */
export const runTooLarge = (detail: string): ProblemError => new ProblemError('validation-failed', detail);
export const workflowNotFound = (): ProblemError =>
  new ProblemError('not-found', 'Workflow not found. It may never have existed, was deleted, or belongs to a different caller.');

export const runNotFound = (): ProblemError =>
  new ProblemError('not-found', 'Workflow run not found. It may never have existed, expired, or belongs to a different caller.');

export const approvalNotFound = (): ProblemError =>
  new ProblemError('not-found', 'Approval not found. It may never have existed, or belongs to a different caller.');

export const definitionCapReached = (max: number): ProblemError =>
  new ProblemError('conflict', `This caller already stores the maximum of ${max} workflow definitions; delete one first.`);

export const workflowHasLiveRun = (): ProblemError =>
  new ProblemError('conflict', 'The workflow already has a live run (Queued, Running or Blocked).');

export const ownerRunCapReached = (max: number): ProblemError =>
  new ProblemError('conflict', `This caller already has the maximum of ${max} live workflow runs.`);

export const deleteWhileLive = (): ProblemError =>
  new ProblemError('conflict', 'The workflow has a live run; cancel it or wait for it to finish before deleting.');

export const runAlreadyFinal = (): ProblemError => new ProblemError('conflict', 'The run has already finished.');

export const approvalAlreadyAnswered = (): ProblemError =>
  new ProblemError('conflict', 'The approval was already decided, timed out or withdrawn.');

export const streamCeilingReached = (): ProblemError =>
  new ProblemError('unavailable', 'The progress-stream ceiling of the host or of this caller has been reached; retry later.');
