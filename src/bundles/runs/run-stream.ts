// What opening a run's stream hands the HTTP edge: the run's frames as they are logged, a way to
// cancel the run when the connection goes, and the caller's stream slot to give back at the end.
import type { BundleFrame } from './bundle-frame.js';
import type { LoggedEvent } from '../../runs/index.js';
import type { RunError } from './run-errors.js';

export interface RunStream {
  /** Every frame from RUN_STARTED on, ending after the terminal frame (or when `signal` aborts). */
  frames(signal: AbortSignal): AsyncGenerator<LoggedEvent<BundleFrame>>;
  /** Cancels the run (the connection closed, or `reason`); a no-op once it has ended. */
  cancel(reason?: RunError): void;
  /** Frees the caller's stream slot; idempotent. */
  release(): void;
}
