// What opening a run's stream hands the HTTP edge: the run's frames as its journal has them, a way to
// cancel the run when the connection goes, and the caller's stream slot to give back at the end.
import type { JournalEvent } from '../../platform/storage/index.js';
import type { BundleFrame } from './bundle-frame.js';
import type { CancelCause } from '../../runs/index.js';

export interface RunStream {
  /**
   * Every frame from RUN_STARTED on, ending after the terminal frame (or when `signal` aborts). Once
   * `finish` aborts (the host stopping) it ends with what is committed, and with RUN_ERROR when the run
   * did not end here.
   */
  frames(signal: AbortSignal, finish: AbortSignal): AsyncGenerator<JournalEvent<BundleFrame>>;
  /** Cancels the run (the connection closed; `client-too-slow` when it was dropped for not reading); a no-op once it has ended. */
  cancel(cause?: CancelCause): void;
  /** Frees the caller's stream slot; idempotent. */
  release(): void;
}
