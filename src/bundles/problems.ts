// The problems the bundle routes answer with, each with its fixed caller-safe detail. Foreign, unknown
// and expired resources share one detail per resource kind, so they are indistinguishable.
import { ProblemError } from '../platform/problems/index.js';
import { rateLimitedProblem } from '../platform/rate-limit/index.js';

export const HANDLE_NOT_FOUND_DETAIL =
  'Bundle handle not found or expired. Register the bundle again to obtain a fresh handle.';
export const RUN_NOT_FOUND_DETAIL =
  'Bundle run not found. It may never have existed, expired, or belongs to a different caller.';
export const CONVERSATION_NOT_FOUND_DETAIL =
  'Conversation not found for this caller. Choose another conversationId to start a new conversation.';
export const BUNDLES_DISABLED_DETAIL =
  'Bundle execution is disabled on this host. Set AppConfig:AI:BundleExecution:Enabled to true to enable it.';

export function bundlesDisabled(): ProblemError {
  return new ProblemError('forbidden', BUNDLES_DISABLED_DETAIL);
}

export function runNotStreamable(): ProblemError {
  return new ProblemError(
    'run-not-streamable',
    'Only a queued run started with "stream": true can be streamed, once. This run is a background run, is already streaming, or has finished; poll its status URL instead.',
  );
}

export function stagingRootOverlaps(): ProblemError {
  return new ProblemError(
    'validation-failed',
    'Staging is refused: AppConfig:AI:BundleExecution:TempRoot overlaps an agent or skill discovery path. The host operator must move it.',
  );
}

export function uploadFieldMissing(): ProblemError {
  return new ProblemError('validation-failed', 'The request must be multipart/form-data with the zip archive in a file field named "file".');
}

export function uploadHasSeveralFiles(): ProblemError {
  return new ProblemError('validation-failed', 'The request must carry exactly one file: the zip archive, in the field named "file".');
}

export function tooManyActiveRuns(): ProblemError {
  return rateLimitedProblem(1, 'This caller already has the maximum number of queued or running bundle runs.');
}

export function tooManyStreams(): ProblemError {
  return rateLimitedProblem(1, 'This caller already has the maximum number of open bundle run streams.');
}
