// The caller-safe `error` strings a failed bundle run carries (SPEC.md's three known values, DESIGN.md
// §10's reclaimed-reservation value, §11's dead-host value and the dropped slow stream reader's) and
// the `conversationError` of a host without a model. Poll bodies and RUN_ERROR frames carry exactly
// these; causes stay in the host log.

export const RUN_HANDLE_EXPIRED = 'The bundle handle expired before the run started.';
export const RUN_CANCELLED = 'The run was cancelled.';
export const RUN_UNHANDLED_EXCEPTION = 'bundle_run.unhandled_exception';
export const RUN_RESERVATION_EXPIRED = 'The stream reservation expired before the stream was opened.';
export const RUN_HOST_STOPPED = 'The host executing this run stopped.';
/** The stream client stopped reading and more than 1 MiB waited unsent: it was dropped, the run stopped. */
export const RUN_STREAM_CLIENT_TOO_SLOW = 'The stream client stopped reading, so the stream was dropped and the run stopped.';

export type RunError =
  | typeof RUN_HANDLE_EXPIRED
  | typeof RUN_CANCELLED
  | typeof RUN_UNHANDLED_EXCEPTION
  | typeof RUN_RESERVATION_EXPIRED
  | typeof RUN_HOST_STOPPED
  | typeof RUN_STREAM_CLIENT_TOO_SLOW;

export { NO_CHAT_MODEL_ERROR } from '../../agent/index.js';
